// What the read a revalidate check runs first gave (`revalidate.fetch`, docs/long-running.md):
// the engine records it as `inputs.fetched` of step_revalidated, and `weft inspect` and the step
// detail show it. One home for its shape and its words, so the CLI and the app say the same.
import { z } from 'zod';

/** The read's evidence: its kind, whether it answered well, its output or its error, how long it took. */
export const Fetched = z.object({
  kind: z.enum(['http', 'command', 'script']),
  ok: z.boolean(),
  output: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  durationMs: z.number().nonnegative(),
});
export type Fetched = z.infer<typeof Fetched>;

/**
 * The read recorded in a check's `inputs`, or undefined for a check without one (and for events
 * written before reads existed).
 *
 * @example fetchedIn({ read: {}, fetched: { kind: 'http', ok: true, output: { status: 200 }, durationMs: 80 } })?.ok // true
 */
export function fetchedIn(inputs: unknown): Fetched | undefined {
  if (inputs === null || typeof inputs !== 'object' || !('fetched' in inputs)) return undefined;
  const parsed = Fetched.safeParse((inputs as { fetched: unknown }).fetched);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The read in words: its kind and how it ended.
 *
 * @example fetchedWords({ kind: 'http', ok: false, error: { code: 'http_503', message: 'down' }, durationMs: 120 }) // 'http read failed after 120 ms: http_503: down'
 */
export function fetchedWords(f: Fetched): string {
  if (!f.ok) return `${f.kind} read failed after ${f.durationMs} ms: ${f.error === undefined ? 'no answer' : `${f.error.code}: ${f.error.message}`}`;
  const status = f.kind === 'http' && f.output !== null && typeof f.output === 'object' && 'status' in f.output ? ` (status ${String((f.output as { status: unknown }).status)})` : '';
  return `${f.kind} read answered in ${f.durationMs} ms${status}`;
}

const READ_SUFFIX = '.revalidate';

/**
 * The name the read of step `stepId`'s revalidate check goes by where reads are named like steps:
 * a scenario's scripted answers, a replay's recordings, a trust refusal.
 *
 * @example readName('approve') // 'approve.revalidate'
 */
export const readName = (stepId: string): string => `${stepId}${READ_SUFFIX}`;

/**
 * The step whose check's read `name` is (readName's inverse), or undefined for any other name.
 *
 * @example readOf('approve.revalidate') // 'approve'
 */
export const readOf = (name: string): string | undefined => (name.endsWith(READ_SUFFIX) ? name.slice(0, -READ_SUFFIX.length) : undefined);
