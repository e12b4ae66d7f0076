// What a step's output becomes in the event log (docs/long-running.md): each field its output
// schema marks sensitive is stored as an artifact and replaced by its reference (the redaction
// marker), then the whole output, if its JSON is over the threshold, is stored and replaced by
// one reference. The attempt's executor and acceptance rule saw the value itself; nothing after
// the log sees more than the reference unless a step reads it (read-through.ts).
import { sensitivePathsOf, type SensitiveSegment } from '../../shared/artifacts/sensitive-fields.ts';
import { isArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import type { ArtifactStore } from './artifact-store.ts';

/** A step output (or input) whose JSON is over this many bytes is stored by reference: 8 MiB (below it, the API elides values over 64 KiB, docs/payloads.md). */
export const DEFAULT_ARTIFACT_THRESHOLD = 8 * 1024 * 1024;

/**
 * `output` as the log keeps it.
 *
 * @example
 * externalise({ name: 'Ann', iban: 'DE89…' }, { properties: { iban: { type: 'string', 'x-weft-sensitive': true } } }, store, 1 << 20);
 * // { name: 'Ann', iban: { $artifact: { sha256: '…', size: 24, mediaType: 'application/json', sensitive: true } } }
 */
export function externalise(output: unknown, schema: Record<string, unknown> | undefined, store: ArtifactStore, threshold: number): unknown {
  let out = output;
  const paths = schema === undefined ? [] : sensitivePathsOf(schema);
  for (const p of paths) out = replaceAt(out, p, 0, (v) => store.put(v, true));
  if (out === undefined || isArtifactRef(out) || threshold === Infinity) return out;
  const size = Buffer.byteLength(JSON.stringify(out) ?? '', 'utf8');
  return size > threshold ? store.put(out, false) : out;
}

/** `v` with the values at path `p` (from segment `i`) replaced; unchanged parts are shared, not copied. */
function replaceAt(v: unknown, p: readonly SensitiveSegment[], i: number, put: (value: unknown) => unknown): unknown {
  if (v === undefined || isArtifactRef(v)) return v;
  if (i === p.length) return put(v);
  if (v === null || typeof v !== 'object') return v; // the schema check failed this output already; nothing to hide below a leaf
  const seg = p[i] as SensitiveSegment;
  if (Array.isArray(v)) {
    if (typeof seg === 'string' || seg.every !== 'item') return v;
    return v.map((x) => replaceAt(x, p, i + 1, put));
  }
  const o = v as Record<string, unknown>;
  if (typeof seg === 'string') {
    if (!Object.hasOwn(o, seg)) return v;
    return { ...o, [seg]: replaceAt(o[seg], p, i + 1, put) };
  }
  if (seg.every !== 'key') return v;
  const copy: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) copy[k] = seg.except.includes(k) ? x : replaceAt(x, p, i + 1, put);
  return copy;
}
