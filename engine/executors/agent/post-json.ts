// One JSON POST to a provider: no retries, no streaming, the body read up to a cap. Network
// failures become `connection_failed` ProviderErrors; an abort through the signal is rethrown as
// is, for the executor to report. HTTP error statuses are returned, not thrown: each provider
// reads its own error body (provider-http-error.ts).
import { ProviderError } from './provider.ts';

export type Fetch = typeof globalThis.fetch;

export interface HttpReply {
  status: number;
  headers: Headers;
  body: string;
}

export interface PostOptions {
  fetch: Fetch;
  maxReplyBytes: number;
  signal: AbortSignal;
}

/** Errors meaning the request never left this machine, so the server cannot have seen it. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export async function postJson(url: string, headers: Record<string, string>, body: unknown, options: PostOptions): Promise<HttpReply> {
  let response: Response;
  try {
    response = await options.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: options.signal,
      redirect: 'error',
    });
  } catch (error) {
    throw networkError(error, url, options.signal, 'before the reply arrived');
  }
  try {
    const text = await readCapped(response, options.maxReplyBytes);
    return { status: response.status, headers: response.headers, body: text };
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw networkError(error, url, options.signal, 'while the reply was arriving');
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(response.status, maxBytes);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(response.status, maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function tooLarge(status: number, maxBytes: number): ProviderError {
  return new ProviderError({
    code: 'reply_too_large',
    message: `the provider's reply (HTTP ${status}) is larger than ${maxBytes} bytes; lower config.maxTokens or check config.baseUrl`,
    retryable: false,
    status,
  });
}

function networkError(error: unknown, url: string, signal: AbortSignal, when: string): unknown {
  if (signal.aborted) return error; // the executor reports the abort
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const why = cause instanceof Error ? cause.message : String(cause);
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const what = notSent ? `could not reach ${originOf(url)}` : `the connection to ${originOf(url)} failed ${when}`;
  return new ProviderError({
    code: 'connection_failed',
    message: `${what}: ${why}${code === undefined || why.includes(code) ? '' : ` (${code})`}; check config.baseUrl and the network`,
    retryable: true,
    notSent,
  });
}

/** The server part of a URL, for messages (a path or query could carry something private). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the provider';
  }
}
