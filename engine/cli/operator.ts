// Who acts, for operator commands: --by NAME, else $WEFT_USER, else $USER, else "cli". An empty
// variable names no one and is passed over (an empty --by is the user's to fix, and is refused).
export function actor(by: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const named = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v);
  return by ?? named(env['WEFT_USER']) ?? named(env['USER']) ?? 'cli';
}
