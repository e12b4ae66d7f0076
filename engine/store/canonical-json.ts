// Canonical JSON (object keys sorted, no white space) and its SHA-256: the identity of a
// definition and of a step's resolved input, independent of key order and formatting.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  }) ?? 'null';
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Short, readable hash for display and ids: the first 16 hex digits of sha256(canonical). */
export const hashOf = (value: unknown): string => sha256(canonicalJson(value)).slice(0, 16);
