// The `http` executor: one attempt sends one request (http-request-plan.ts builds it) and reports
// what the reply says (http-status-result.ts) or what losing it means (http-connection-result.ts).
// Redirects are not followed: the request that ran is exactly the one the definition names, and an
// external effect never reaches a second server; a 3xx is a status like any other. Retries and
// timeouts are the engine's; like every executor, this one never throws.
import { HttpConfig } from '../../../shared/definition/step-config.ts';
import { systemClock } from '../../time/clock.ts';
import { invalidConfigResult } from '../config-error.ts';
import { DEFAULT_MAX_RESULT_BYTES, type AttemptContext, type AttemptResult, type Executor } from '../executor.ts';
import type { AttemptMeta } from '../../../shared/events/attempt-meta.ts';
import { notStartedResult } from '../interrupted-result.ts';
import { abortResult, lostResult, notSentResult } from './http-connection-result.ts';
import { exchange } from './http-exchange.ts';
import { planRequest, type HttpRequestPlan } from './http-request-plan.ts';
import { headerRecord, isExpectedStatus, statusResult, type HttpOutput } from './http-status-result.ts';
import { bodyText, bodyValue, decodeContent } from './response-body.ts';

export interface HttpExecutorOptions {
  /** Largest reply body accepted (default 16 MiB); more fails the attempt with `response_too_large`. */
  maxResponseBytes?: number;
  /** Wall clock for latency and `Retry-After` dates (default the system clock). */
  clock?: { now(): number };
}

export class HttpExecutor implements Executor {
  private readonly maxResponseBytes: number;
  private readonly clock: { now(): number };

  constructor(options: HttpExecutorOptions = {}) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESULT_BYTES;
    this.clock = options.clock ?? systemClock;
  }

  async execute(ctx: AttemptContext): Promise<AttemptResult> {
    const parsed = HttpConfig.safeParse(ctx.config);
    if (!parsed.success) return invalidConfigResult(ctx.stepId, 'http', parsed.error);
    const config = parsed.data;
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);
    const planned = await planRequest(ctx, config);
    if (!planned.ok) return planned.result;
    const plan = planned.plan;
    // Rendering is asynchronous: the attempt may have been aborted meanwhile.
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);

    const started = this.clock.now();
    const end = await exchange(plan, { signal: ctx.signal, maxBytes: this.maxResponseBytes });
    const latencyMs = Math.max(0, this.clock.now() - started);
    const meta = (status?: number): AttemptMeta => ({ ...(status === undefined ? {} : { status }), latencyMs });

    switch (end.kind) {
      case 'not_sent':
        return notSentResult(plan, end.error, meta());
      case 'aborted':
        return abortResult(ctx.step, plan, ctx.signal, end.connected, meta(end.status));
      case 'lost':
        // A known status that is not a success already says how the request went.
        if (end.status !== undefined && !isExpectedStatus(end.status, config.expectStatus)) {
          const output: HttpOutput = { status: end.status, headers: headerRecord(end.headers ?? {}), body: null };
          return statusResult({ plan, output, bodyText: `(the body was lost: ${end.error.message})`, expectStatus: config.expectStatus, latencyMs, now: this.clock.now() });
        }
        return lostResult(ctx.step, plan, end.error, end.status, meta(end.status));
      case 'too_large':
        return this.tooLarge(plan, end.status, headerRecord(end.headers), meta(end.status), end.declared);
      case 'response':
        break;
    }

    const headers = headerRecord(end.headers);
    const decoded = await decodeContent(end.body, headers['content-encoding'], this.maxResponseBytes);
    if (!decoded.ok) {
      if (decoded.tooLarge) return this.tooLarge(plan, end.status, headers, meta(end.status));
      const output: HttpOutput = { status: end.status, headers, body: null };
      if (!isExpectedStatus(end.status, config.expectStatus)) {
        return statusResult({ plan, output, bodyText: `(${decoded.problem})`, expectStatus: config.expectStatus, latencyMs, now: this.clock.now() });
      }
      return { outcome: 'failed', code: 'invalid_response', message: `${plan.method} ${plan.shownUrl} answered ${end.status}, but ${decoded.problem}`, retryable: false, output, meta: meta(end.status) };
    }
    const contentType = headers['content-type'];
    const text = bodyText(decoded.bytes, contentType);
    return statusResult({
      plan,
      output: { status: end.status, headers, body: decoded.bytes.length === 0 ? null : bodyValue(text, contentType) },
      bodyText: text,
      expectStatus: config.expectStatus,
      latencyMs,
      now: this.clock.now(),
    });
  }

  private tooLarge(plan: HttpRequestPlan, status: number, headers: Record<string, string>, meta: AttemptMeta, declared?: number): AttemptResult {
    const size = declared === undefined ? 'more than' : `${declared} bytes, more than`;
    return {
      outcome: 'failed',
      code: 'response_too_large',
      message: `${plan.method} ${plan.shownUrl} answered ${status} with a body of ${size} the ${this.maxResponseBytes}-byte limit; ask for less (paging, a filter) or use a command or script step to download it`,
      retryable: false,
      output: { status, headers, body: null },
      meta,
    };
  }
}
