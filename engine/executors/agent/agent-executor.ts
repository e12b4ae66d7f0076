// The `agent` executor: one attempt is one model call. It renders the prompt, calls the
// provider once and reports what came back; retries, retry variants (already merged into
// ctx.config) and timeouts belong to the engine. With `responseFormat: "json"` (the default) the
// reply is parsed as JSON and becomes the output, which the engine then checks against the step's
// `output` schema; a reply that is not JSON fails with `invalid_json_reply` and its text is kept
// as evidence. Every result is scrubbed of the API key before it leaves (scrub-secrets.ts).
import { AgentConfig } from '../../../shared/definition/step-config.ts';
import { invalidConfigResult } from '../config-error.ts';
import { DEFAULT_MAX_RESULT_BYTES, type AttemptContext, type AttemptResult, type Executor } from '../executor.ts';
import type { AttemptMeta } from '../../../shared/events/attempt-meta.ts';
import { abortedResult, notStartedResult } from '../interrupted-result.ts';
import { realSchedule, type Schedule } from '../schedule.ts';
import { agentRequest } from './agent-request.ts';
import { parseModelJson } from './model-json.ts';
import type { Fetch } from './post-json.ts';
import { ProviderError, type Completion } from './provider.ts';
import { providerForStep } from './provider-for-step.ts';
import { SecretScrubber } from './scrub-secrets.ts';

export interface AgentExecutorOptions {
  /** Where API keys are read from (default process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  /** HTTP client (default the global fetch). */
  fetch?: Fetch;
  /** Timers for the mock provider's `delayMs` (default real timers). */
  schedule?: Schedule;
  /** Wall-clock time, for a `retry-after` given as an HTTP date (default Date.now). */
  now?: () => number;
  /** Largest provider reply accepted (default 16 MiB). */
  maxReplyBytes?: number;
}

export class AgentExecutor implements Executor {
  private readonly environment: Readonly<Record<string, string | undefined>>;
  private readonly fetch: Fetch;
  private readonly schedule: Schedule;
  private readonly now: () => number;
  private readonly maxReplyBytes: number;

  constructor(options: AgentExecutorOptions = {}) {
    this.environment = options.environment ?? process.env;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.schedule = options.schedule ?? realSchedule;
    this.now = options.now ?? (() => Date.now());
    this.maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_RESULT_BYTES;
  }

  async execute(ctx: AttemptContext): Promise<AttemptResult> {
    const parsed = AgentConfig.safeParse(ctx.config);
    if (!parsed.success) return invalidConfigResult(ctx.stepId, 'agent', parsed.error);
    const config = parsed.data;
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);

    if (config.provider === undefined) {
      return { outcome: 'failed', code: 'invalid_config', message: `agent step "${ctx.stepId}" has no provider: give config.provider, or candidates to choose from`, retryable: false };
    }
    // A candidate's mock replies are the story of that candidate's uses, not of the step's attempts.
    const choice = providerForStep(ctx.stepId, ctx.candidate?.use ?? ctx.countedAttempt ?? ctx.attempt, { ...config, provider: config.provider }, {
      environment: this.environment,
      fetch: this.fetch,
      schedule: this.schedule,
      now: this.now,
      maxReplyBytes: this.maxReplyBytes,
    });
    const meta: AttemptMeta = { provider: config.provider, model: choice.model };
    if (!choice.ok) return { outcome: 'failed', code: choice.code, message: choice.message, retryable: false, meta };
    const scrub = new SecretScrubber([choice.apiKey]);

    const built = await agentRequest(ctx, config, choice.model);
    if (!built.ok) return scrubbed({ outcome: 'failed', code: built.code, message: built.message, retryable: false, meta }, scrub);
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);

    const started = performance.now();
    let completion: Completion;
    try {
      completion = await choice.provider.complete(built.request, ctx.signal);
    } catch (error) {
      meta.latencyMs = elapsed(started);
      return scrubbed(failure(ctx, error, meta), scrub);
    }
    meta.latencyMs = elapsed(started);
    meta.model = completion.model;
    if (completion.usage !== undefined) meta.usage = completion.usage;
    return scrubbed(replyResult(completion, built.request.json, config.maxTokens, meta), scrub);
  }
}

function replyResult(completion: Completion, json: boolean, maxTokens: number | undefined, meta: AttemptMeta): AttemptResult {
  if (!json) return { outcome: 'succeeded', output: completion.text, meta };
  const parsed = parseModelJson(completion.text);
  if (parsed.ok) return { outcome: 'succeeded', output: parsed.value, meta };
  const cutOff = completion.truncated === true
    ? `; the reply stopped at the token limit${maxTokens === undefined ? '' : ` (config.maxTokens ${maxTokens})`}, so raise config.maxTokens or ask for a shorter answer`
    : '; ask for JSON only in the prompt, or set responseFormat to "text"';
  return {
    outcome: 'failed',
    code: 'invalid_json_reply',
    message: `the model's reply is not JSON: ${parsed.message}${cutOff}`,
    retryable: true,
    output: { text: completion.text },
    meta,
  };
}

function failure(ctx: AttemptContext, error: unknown, meta: AttemptMeta): AttemptResult {
  // However the provider noticed it, an aborted signal means the engine stopped the attempt.
  if (ctx.signal.aborted) return { ...abortedResult(ctx.step, ctx.signal), meta };
  if (!(error instanceof ProviderError)) {
    const why = error instanceof Error ? error.message : String(error);
    return { outcome: 'failed', code: 'agent_error', message: `agent step "${ctx.stepId}" failed unexpectedly: ${why}`, retryable: false, meta };
  }
  if (error.status !== undefined) meta.status = error.status;
  if (error.retryAfterMs !== undefined) meta.retryAfterMs = error.retryAfterMs;
  // Principle 3: a lost reply of a step with an external effect is unknown, not a failure. (Only
  // a step that declares an effect for its model call gets here; agent steps are usually `none`.)
  if (error.code === 'connection_failed' && !error.notSent && ctx.step.effect === 'external') {
    return { outcome: 'unknown', reason: `${error.code}: ${error.message}`, meta };
  }
  return { outcome: 'failed', code: error.code, message: error.message, retryable: error.retryable, meta };
}

/** Output, messages and the meta (the model name is the provider's reply, which may echo a key). */
function scrubbed(result: AttemptResult, scrub: SecretScrubber): AttemptResult {
  const meta = result.meta === undefined ? {} : { meta: scrubMeta(result.meta, scrub) };
  switch (result.outcome) {
    case 'succeeded':
      return { ...result, output: scrub.exactValue(result.output), ...meta };
    case 'failed': {
      const out: AttemptResult = { ...result, message: scrub.message(result.message), ...meta };
      if (result.output !== undefined) out.output = scrub.value(result.output);
      return out;
    }
    case 'unknown':
      return { ...result, reason: scrub.message(result.reason), ...meta };
    case 'partial':
      return { ...result, output: scrub.value(result.output), ...(result.remaining === undefined ? {} : { remaining: scrub.value(result.remaining) }), ...meta };
  }
}

function scrubMeta(meta: AttemptMeta, scrub: SecretScrubber): AttemptMeta {
  const out: AttemptMeta = { ...meta };
  if (out.provider !== undefined) out.provider = scrub.message(out.provider);
  if (out.model !== undefined) out.model = scrub.message(out.model);
  return out;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
