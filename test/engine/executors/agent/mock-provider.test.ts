// The `mock` provider: a scripted story per attempt, errors with the retryability their status
// implies, delays that an abort cuts short.
import { describe, expect, it } from 'vitest';
import { AgentExecutor } from '../../../../engine/executors/agent/agent-executor.ts';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { realSchedule, type Schedule } from '../../../../engine/executors/schedule.ts';
import { agentContext } from './agent-context.ts';

const executor = new AgentExecutor({ environment: {} });

const mock = (replies: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: 'mock',
  prompt: 'Propose a refund for {{ input.ticketId }}.',
  mock: { replies },
  ...extra,
});

function attempt(config: Record<string, unknown>, n: number, signal?: AbortSignal): Promise<AttemptResult> {
  return executor.execute(agentContext({ config, attempt: n, runInput: { ticketId: 'T-1' }, ...(signal ? { signal } : {}) }));
}

describe('mock provider', () => {
  it('answers attempt N with reply N and repeats the last reply', async () => {
    const config = mock([
      { text: 'Sure! Here is my answer...' },
      { error: { code: 'rate_limited', message: 'slow down', status: 429, retryAfterMs: 1000 } },
      { output: { decision: 'refund', amount: 49.9 }, usage: { inputTokens: 600, outputTokens: 70 } },
    ]);
    expect(await attempt(config, 1)).toMatchObject({
      outcome: 'failed',
      code: 'invalid_json_reply',
      retryable: true,
      output: { text: 'Sure! Here is my answer...' },
      meta: { provider: 'mock', model: 'mock' },
    });
    expect(await attempt(config, 2)).toMatchObject({
      outcome: 'failed',
      code: 'rate_limited',
      message: 'mock reply 2: slow down',
      retryable: true,
      meta: { provider: 'mock', status: 429, retryAfterMs: 1000 },
    });
    for (const n of [3, 4, 9]) {
      expect(await attempt(config, n)).toEqual({
        outcome: 'succeeded',
        output: { decision: 'refund', amount: 49.9 },
        meta: { provider: 'mock', model: 'mock', usage: { inputTokens: 600, outputTokens: 70 }, latencyMs: expect.any(Number) },
      });
    }
  });

  it('makes an error retryable unless its status is a 4xx other than 429', async () => {
    const cases: Array<[number | undefined, boolean]> = [[undefined, true], [429, true], [500, true], [503, true], [400, false], [401, false], [404, false]];
    for (const [status, retryable] of cases) {
      const error = { code: 'provider_said_no', message: 'no', ...(status === undefined ? {} : { status }) };
      expect(await attempt(mock([{ error }]), 1), `status ${String(status)}`).toMatchObject({ outcome: 'failed', code: 'provider_said_no', retryable });
    }
  });

  it('returns a string output as text with responseFormat text, and reports config.model', async () => {
    const config = mock([{ output: 'A refund of 49.90 is fair.' }], { responseFormat: 'text', model: 'demo-model' });
    expect(await attempt(config, 1)).toMatchObject({ outcome: 'succeeded', output: 'A refund of 49.90 is fair.', meta: { model: 'demo-model' } });
  });

  it('treats a reply with neither output, text nor error as an empty reply', async () => {
    expect(await attempt(mock([{}]), 1)).toMatchObject({ outcome: 'failed', code: 'invalid_json_reply', output: { text: '' } });
    expect(await attempt(mock([{ output: null }]), 1)).toMatchObject({ outcome: 'succeeded', output: null });
  });

  it('waits delayMs on the injected schedule before answering', async () => {
    const waits: number[] = [];
    const instant: Schedule = (fn, ms) => {
      waits.push(ms);
      queueMicrotask(fn);
      return { cancel: () => undefined };
    };
    const scheduled = new AgentExecutor({ environment: {}, schedule: instant });
    const result = await scheduled.execute(agentContext({ config: mock([{ output: { ok: true }, delayMs: 600_000 }]) }));
    expect(result).toMatchObject({ outcome: 'succeeded', output: { ok: true } });
    expect(waits).toEqual([600_000]);
  });

  it('stops a delay promptly when the attempt is aborted, cancelling its timer', async () => {
    let scheduled!: () => void;
    const delayStarted = new Promise<void>((resolve) => (scheduled = resolve));
    let cancelled = false;
    const watched: Schedule = (fn, ms, options) => {
      const timer = realSchedule(fn, ms, options);
      scheduled();
      return { cancel: () => ((cancelled = true), timer.cancel()) };
    };
    const controller = new AbortController();
    const pending = new AgentExecutor({ environment: {}, schedule: watched }).execute(
      agentContext({ config: mock([{ output: { ok: true }, delayMs: 600_000 }]), signal: controller.signal }),
    );
    await delayStarted;
    controller.abort(new Error('timed out after 50 ms'));
    expect(await pending).toMatchObject({ outcome: 'failed', code: 'aborted', message: 'aborted: timed out after 50 ms', retryable: true });
    expect(cancelled).toBe(true);
  });

  it('needs no API key', async () => {
    expect(await attempt(mock([{ output: 1 }]), 1)).toMatchObject({ outcome: 'succeeded', output: 1 });
  });

  it('fails with invalid_config when mock.replies is missing', async () => {
    const result = await attempt({ provider: 'mock', prompt: 'x' }, 1);
    expect(result).toMatchObject({ outcome: 'failed', code: 'invalid_config', retryable: false });
    if (result.outcome === 'failed') expect(result.message).toContain('config.mock: a mock agent needs mock.replies');
  });
});
