// How an HTTP error status from a provider becomes a ProviderError. The provider's own error
// message (OpenAI's and Anthropic's bodies both carry `error.message`) goes into ours, since it
// usually says what to fix ("model not found", "max_tokens too large"); it is scrubbed of keys
// by the executor like every message.
import { ProviderError } from './provider.ts';
import { retryAfterMs } from '../retry-after.ts';
import type { HttpReply } from './post-json.ts';

const MAX_DETAIL_CHARS = 500;

export function providerHttpError(provider: string, reply: HttpReply, now: number): ProviderError {
  const status = reply.status;
  const detail = errorDetail(reply.body);
  const said = detail === '' ? '' : `: ${detail}`;
  const wait = retryAfterMs((name) => reply.headers.get(name), now);
  const waitFields = wait === undefined ? {} : { retryAfterMs: wait };
  if (status === 429) {
    const after = wait === undefined ? '' : ` (it asks to wait ${wait} ms)`;
    return new ProviderError({ code: 'rate_limited', message: `${provider} rate limit reached (HTTP 429)${after}${said}`, retryable: true, status, ...waitFields });
  }
  if (status >= 500 || status === 408) {
    return new ProviderError({ code: 'provider_unavailable', message: `${provider} is unavailable (HTTP ${status})${said}`, retryable: true, status, ...waitFields });
  }
  if (status === 401 || status === 403) {
    return new ProviderError({
      code: 'auth_failed',
      message: `${provider} refused the API key (HTTP ${status})${said}; check the key in the variable named by config.apiKeyEnv and its access to this model`,
      retryable: false,
      status,
    });
  }
  if (status >= 400) {
    return new ProviderError({ code: 'bad_request', message: `${provider} rejected the request (HTTP ${status})${said}; check config.model, config.maxTokens and config.temperature`, retryable: false, status });
  }
  return new ProviderError({ code: 'malformed_reply', message: `${provider} answered with unexpected HTTP status ${status}${said}`, retryable: true, status });
}

/** The provider's error message when the body has one, else the start of the body. */
function errorDetail(body: string): string {
  let text = body.trim();
  try {
    const parsed: unknown = JSON.parse(body);
    const message = messageIn(parsed);
    if (message !== undefined) text = message;
  } catch {
    // not JSON: an HTML error page from a proxy, plain text
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

function messageIn(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  const message = (value as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}
