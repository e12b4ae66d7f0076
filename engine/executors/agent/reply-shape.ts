// Reading a provider's 2xx reply body without trusting its shape: a proxy's HTML page or a
// server that is not the provider it claims to be is a `malformed_reply`, never a crash.
import { ProviderError } from './provider.ts';
import { originOf, type HttpReply } from './post-json.ts';

export function replyJson(provider: string, reply: HttpReply, url: string): unknown {
  try {
    return JSON.parse(reply.body) as unknown;
  } catch {
    const start = reply.body.trim().slice(0, 120).replace(/\s+/g, ' ');
    throw new ProviderError({
      code: 'malformed_reply',
      message: `${provider}'s reply from ${originOf(url)} (HTTP ${reply.status}) is not JSON${start === '' ? ' (it is empty)' : `: it starts with ${JSON.stringify(start)}`}; check config.baseUrl`,
      retryable: true,
      status: reply.status,
    });
  }
}

/** The object at `path` inside `value`, if every step of the way exists. */
export function objectAt(value: unknown, path: ReadonlyArray<string | number>): Record<string, unknown> | undefined {
  let cur: unknown = value;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[key];
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>) : undefined;
}
