// The HTTP part every remote provider shares: one JSON POST to `{baseUrl}{path}` (post-json.ts),
// a non-2xx status turned into a ProviderError (provider-http-error.ts) and a 2xx body read as
// JSON (reply-shape.ts). Each provider only builds its request body and reads its reply's shape.
import { postJson, type Fetch } from './post-json.ts';
import { providerHttpError } from './provider-http-error.ts';
import { replyJson } from './reply-shape.ts';

export interface HttpProviderOptions {
  baseUrl: string;
  apiKey: string;
  fetch: Fetch;
  maxReplyBytes: number;
  now: () => number;
}

/** The JSON of a 2xx reply; every failure is thrown as a ProviderError (an abort as is). */
export async function callProvider(
  provider: string,
  options: HttpProviderOptions,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  // A base URL may be given with or without a trailing slash.
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
  const reply = await postJson(url, headers, body, { fetch: options.fetch, maxReplyBytes: options.maxReplyBytes, signal });
  if (reply.status < 200 || reply.status > 299) throw providerHttpError(provider, reply, options.now());
  return replyJson(provider, reply, url);
}
