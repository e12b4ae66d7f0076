// The reference to a value kept in the artifact store (docs/long-running.md, "Large and sensitive
// data by reference"): the one shape the event log, the API, the CLI and the app show in place of
// a large or sensitive value. Content-addressed: `sha256` is the hash of the stored bytes, so two
// equal values share one file. A sensitive value's reference is its redaction marker: it never
// carries the value, only where to find it.
import { z } from 'zod';

/** The media type of every artifact the engine writes: the value's JSON text. */
export const ARTIFACT_MEDIA_TYPE = 'application/json';

export const ArtifactRefBody = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'an artifact sha256 is 64 lowercase hex digits'),
  size: z.number().int().nonnegative(),
  mediaType: z.string().min(1),
  sensitive: z.literal(true).optional(),
});
export type ArtifactRefBody = z.infer<typeof ArtifactRefBody>;

/**
 * `{ "$artifact": { sha256, size, mediaType, sensitive? } }`.
 *
 * @example
 * ArtifactRef.parse({ $artifact: { sha256: 'ab…', size: 1200000, mediaType: 'application/json' } });
 */
export const ArtifactRef = z.strictObject({ $artifact: ArtifactRefBody });
export type ArtifactRef = z.infer<typeof ArtifactRef>;

/**
 * Whether `v` is an artifact reference: an object whose only key is `$artifact` holding a valid
 * body. Cheap on anything else (most values are not objects with that key).
 *
 * @example
 * isArtifactRef({ $artifact: { sha256: '…', size: 3, mediaType: 'application/json' } }); // true
 * isArtifactRef({ total: 3 }); // false
 */
export function isArtifactRef(v: unknown): v is ArtifactRef {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, '$artifact')) return false;
  return ArtifactRef.safeParse(v).success;
}

/** Whether the reference is a redacted sensitive value (shown only when an operator opens it). */
export function isSensitiveRef(v: unknown): v is ArtifactRef {
  return isArtifactRef(v) && v.$artifact.sensitive === true;
}

/**
 * Whether `v` holds an artifact reference anywhere inside (itself included). Walks the value; the
 * engine asks only of values it is about to read through.
 */
export function holdsArtifactRef(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (isArtifactRef(v)) return true;
  if (Array.isArray(v)) return v.some(holdsArtifactRef);
  for (const k in v) if (holdsArtifactRef((v as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * The artifact references inside `v`, outermost first (a reference's stored value is not read).
 *
 * @example
 * artifactRefsIn({ a: ref1, b: [ref2] }); // [ref1, ref2]
 */
export function artifactRefsIn(v: unknown, out: ArtifactRef[] = []): ArtifactRef[] {
  if (v === null || typeof v !== 'object') return out;
  if (isArtifactRef(v)) {
    out.push(v);
    return out;
  }
  if (Array.isArray(v)) for (const x of v) artifactRefsIn(x, out);
  else for (const k in v) artifactRefsIn((v as Record<string, unknown>)[k], out);
  return out;
}
