// Results of a request that got no complete reply (principle 3). What matters is whether the
// server can have seen the request:
// - never connected (DNS, refused, unreachable, TLS handshake): nothing was sent, so the attempt
//   simply failed (`connection_failed`), whatever the step's effect, and may be retried;
// - connected, reply lost or garbled: the server may have applied it. For an `external` step that
//   is `unknown`, never `failed`; for other steps repeating is harmless (`connection_lost`);
// - aborted (timeout, cancellation, shutdown): the same split, through interrupted-result.ts.
import type { Step } from '../../../shared/definition/workflow-schema.ts';
import { abortReasonText } from '../abort-reason.ts';
import type { AttemptResult } from '../executor.ts';
import type { AttemptMeta } from '../../../shared/events/attempt-meta.ts';
import { abortedResult } from '../interrupted-result.ts';
import type { HttpRequestPlan } from './http-request-plan.ts';

export function notSentResult(plan: HttpRequestPlan, error: Error, meta: AttemptMeta): AttemptResult {
  return {
    outcome: 'failed',
    code: 'connection_failed',
    message: `${plan.method} ${plan.shownUrl}: could not connect, so nothing was sent: ${connectProblem(plan.url, error)}`,
    retryable: true,
    meta,
  };
}

/** The request may have reached the server; no complete reply came back. */
export function lostResult(step: Step, plan: HttpRequestPlan, error: Error, status: number | undefined, meta: AttemptMeta): AttemptResult {
  const what = status === undefined
    ? `no complete reply arrived: ${lossProblem(error)}`
    : `the server answered ${status} and then the body was lost: ${lossProblem(error)}`;
  if (step.effect === 'external') {
    return { outcome: 'unknown', reason: `${plan.method} ${plan.shownUrl} was sent, but ${what}; whether the server applied it is unknown`, meta };
  }
  return { outcome: 'failed', code: 'connection_lost', message: `${plan.method} ${plan.shownUrl}: ${what}`, retryable: true, meta };
}

export function abortResult(step: Step, plan: HttpRequestPlan, signal: AbortSignal, connected: boolean, meta: AttemptMeta): AttemptResult {
  const reason = abortReasonText(signal);
  if (!connected) {
    // Still connecting: nothing can have reached the server, whatever the effect.
    return { outcome: 'failed', code: 'aborted', message: `aborted before the request was sent: ${reason} (${plan.method} ${plan.shownUrl} was still connecting)`, retryable: true, meta };
  }
  const detail = meta.status === undefined
    ? `; ${plan.method} ${plan.shownUrl} was sent and no reply had arrived`
    : `; ${plan.method} ${plan.shownUrl} was answered ${meta.status} but the body had not fully arrived`;
  return { ...abortedResult(step, signal, detail), meta };
}

function connectProblem(url: URL, error: Error): string {
  const code = errorCode(error);
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  const where = `${url.hostname}:${port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing is listening at ${where} (connection refused)`;
    case 'ENOTFOUND':
      return `the host name "${url.hostname}" does not resolve (DNS lookup failed); check the URL`;
    case 'EAI_AGAIN':
      return `the DNS lookup of "${url.hostname}" failed for now (EAI_AGAIN)`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached (${code})`;
    default:
      if (code !== undefined && /CERT|SELF_SIGNED|ERR_TLS|UNABLE_TO_VERIFY/.test(code)) {
        return `the TLS certificate of ${where} was rejected (${code}: ${error.message})`;
      }
      return code === undefined ? error.message : `${error.message} (${code})`;
  }
}

function lossProblem(error: Error): string {
  const code = errorCode(error);
  if (code?.startsWith('HPE_') === true) return `the reply was not valid HTTP (${error.message})`;
  if (code === 'ECONNRESET') return `the connection was closed or reset (${error.message})`;
  return code === undefined ? error.message : `${error.message} (${code})`;
}

function errorCode(error: Error): string | undefined {
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
