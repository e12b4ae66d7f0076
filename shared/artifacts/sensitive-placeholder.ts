// The stand-in for a sensitive value that a record does not hold (docs/scenarios.md, "Sensitive
// values"): a scenario made from a run (`weft test --from-run`) has only the run's log, where a
// sensitive field is its redacted reference, never the value. The scenario scripts the placeholder
// in its place: the output contract accepts it at a place the step's output schema marks
// `x-weft-sensitive` (whatever that place's type), the engine keeps it by reference like any
// sensitive value, and in `expect` it matches the redacted reference there. So the scenario passes
// against its workflow and holds neither the secret nor its hash.
import { isSensitiveRef } from './artifact-ref.ts';
import type { SensitiveSegment } from './sensitive-fields.ts';

/** What a scenario holds where the run had a sensitive value. */
export const SENSITIVE_PLACEHOLDER = '<sensitive: redacted>';

/**
 * `value` with every redacted sensitive reference in it replaced by the placeholder.
 *
 * @example
 * withPlaceholders({ body: { paymentToken: { $artifact: { sha256: '…', size: 26, mediaType: 'application/json', sensitive: true } } } });
 * // { body: { paymentToken: '<sensitive: redacted>' } }
 */
export function withPlaceholders(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isSensitiveRef(value)) return SENSITIVE_PLACEHOLDER;
  if (Array.isArray(value)) return value.map(withPlaceholders);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withPlaceholders(v);
  return out;
}

/**
 * `actual` as an expectation reads it: where `expected` holds the placeholder and `actual` a
 * redacted sensitive reference, the placeholder; everything else as it is. A scenario expects a
 * sensitive value to be there, redacted, never what it is.
 *
 * @example
 * alignRedacted({ token: '<sensitive: redacted>' }, { token: { $artifact: { …, sensitive: true } } }); // { token: '<sensitive: redacted>' }
 */
export function alignRedacted(expected: unknown, actual: unknown): unknown {
  if (expected === SENSITIVE_PLACEHOLDER) return isSensitiveRef(actual) ? SENSITIVE_PLACEHOLDER : actual;
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object') return actual;
  if (Array.isArray(expected) !== Array.isArray(actual)) return actual;
  if (Array.isArray(expected) && Array.isArray(actual)) return actual.map((a, i) => alignRedacted(expected[i], a));
  const e = expected as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(actual)) out[k] = Object.hasOwn(e, k) ? alignRedacted(e[k], v) : v;
  return out;
}

/**
 * The JSON pointers (as ajv's `instancePath` writes them) of the places in `output` that the
 * schema marks sensitive (`paths`, from sensitivePaths) and that hold the placeholder.
 *
 * @example
 * placeholderPointers({ body: { paymentToken: '<sensitive: redacted>' } }, [['body', 'paymentToken']]); // ['/body/paymentToken']
 */
export function placeholderPointers(output: unknown, paths: readonly SensitiveSegment[][]): string[] {
  const out: string[] = [];
  for (const p of paths) collect(output, p, 0, '', out);
  return out;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function collect(v: unknown, p: readonly SensitiveSegment[], i: number, at: string, out: string[]): void {
  if (i === p.length) {
    if (v === SENSITIVE_PLACEHOLDER) out.push(at);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const seg = p[i] as SensitiveSegment;
  if (Array.isArray(v)) {
    if (typeof seg !== 'string' && seg.every === 'item') v.forEach((x, k) => collect(x, p, i + 1, `${at}/${k}`, out));
    return;
  }
  const o = v as Record<string, unknown>;
  if (typeof seg === 'string') {
    if (Object.hasOwn(o, seg)) collect(o[seg], p, i + 1, `${at}/${escape(seg)}`, out);
    return;
  }
  if (seg.every !== 'key') return;
  for (const [k, x] of Object.entries(o)) if (!seg.except.includes(k)) collect(x, p, i + 1, `${at}/${escape(k)}`, out);
}
