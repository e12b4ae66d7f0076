// What the `agent` executor needs from an LLM provider: one completion, no retries (the engine
// retries), no streaming. Providers throw ProviderError for every failure they can name; the
// executor turns it into a failed attempt with the same code. An abort (the signal) is not a
// ProviderError: the executor sees that the signal is aborted and reports the abort itself.

import type { AuthorErrorCode } from '../../../shared/events/attempt-error-codes.ts';

export interface CompletionRequest {
  model: string;
  system?: string;
  prompt: string;
  temperature?: number;
  maxTokens?: number;
  /** Ask the provider for a JSON reply where it has a switch for that. */
  json: boolean;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface Completion {
  text: string;
  usage?: TokenUsage;
  /** The model that answered, as the provider names it (may be more specific than requested). */
  model: string;
  /** The reply stopped at the token limit, so it is probably cut off. */
  truncated?: boolean;
}

export interface Provider {
  complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion>;
}

/** Stable codes: they become the attempt's error code, usable in `retry.nonRetryable`. */
export type ProviderErrorCode =
  | 'rate_limited'
  | 'provider_unavailable'
  | 'auth_failed'
  | 'bad_request'
  | 'connection_failed'
  | 'malformed_reply'
  | 'reply_too_large'
  | 'model_refused'
  // The mock provider fails with whatever code its script names.
  | AuthorErrorCode;

export interface ProviderErrorFields {
  code: ProviderErrorCode;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  /** The request certainly never reached the server (connection refused, DNS failure). */
  notSent?: boolean;
}

export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly notSent: boolean;

  constructor(fields: ProviderErrorFields) {
    super(fields.message);
    this.name = 'ProviderError';
    this.code = fields.code;
    this.retryable = fields.retryable;
    this.status = fields.status;
    this.retryAfterMs = fields.retryAfterMs;
    this.notSent = fields.notSent ?? false;
  }
}
