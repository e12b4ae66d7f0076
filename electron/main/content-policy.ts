// The Content-Security-Policy the window enforces. The engine sends its own strict policy with a
// fresh style nonce on every page (engine/server/app-index.ts); main must keep that one intact
// (replacing it would break the nonce) and only fills the gap for any response that arrives
// without a policy, with one that allows nothing.

export const FALLBACK_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

type Headers = Record<string, string | string[]>;

/** The response headers with a policy guaranteed: the server's where it sent one, else FALLBACK_CSP. */
export function withContentPolicy(headers: Headers | undefined): Headers {
  const out: Headers = { ...(headers ?? {}) };
  const present = Object.entries(out).some(([name, value]) => name.toLowerCase() === 'content-security-policy' && (Array.isArray(value) ? value.some((v) => v.trim() !== '') : value.trim() !== ''));
  if (!present) {
    for (const name of Object.keys(out)) if (name.toLowerCase() === 'content-security-policy') delete out[name];
    out['Content-Security-Policy'] = [FALLBACK_CSP];
  }
  return out;
}
