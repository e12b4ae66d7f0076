// A command's exit code mapping as one short text per row: "failed", "succeeded", "unknown",
// or "failed:E_CODE" (the error code recorded for the failure).

export type ExitMapping = { outcome: 'succeeded' | 'failed' | 'unknown'; code?: string };

const OUTCOMES = ['succeeded', 'failed', 'unknown'] as const;
const isOutcome = (s: string): s is ExitMapping['outcome'] => OUTCOMES.some((o) => o === s);

export function exitMappingItem(text: string): { ok: true; item: ExitMapping } | { ok: false; error: string } {
  const [head = '', ...rest] = text.split(':');
  const outcome = head.trim();
  const code = rest.join(':').trim();
  if (!isOutcome(outcome)) return { ok: false, error: `"${text}" should be succeeded, failed, unknown or failed:ERROR_CODE` };
  return { ok: true, item: code === '' ? { outcome } : { outcome, code } };
}

export function formatExitMapping(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const outcome = 'outcome' in value ? String(value.outcome) : '';
  const code = 'code' in value && typeof value.code === 'string' ? value.code : '';
  return code === '' ? outcome : `${outcome}:${code}`;
}
