// Who acts, for operator commands: --by NAME, else $WEFT_USER, else $USER, else "cli".
export function actor(by: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return by ?? env['WEFT_USER'] ?? env['USER'] ?? 'cli';
}
