// An agent step on the real engine: a mock model whose first reply is malformed text and whose
// second (a retry variant with a lower temperature) is valid. The engine retries, records the
// variant, the malformed text as evidence and the token use, and the run succeeds.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../shared/events/run-event.ts';
import { data, harness, types, type Harness } from '../../harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const workflow = (replies: unknown[], output: Record<string, unknown>) => ({
  format: 'weft/v1',
  id: 'refund-agent',
  version: 1,
  name: 'Refund agent',
  input: { type: 'object', required: ['ticketId'], properties: { ticketId: { type: 'string' } } },
  steps: [
    {
      id: 'propose',
      kind: 'agent',
      input: '{ "ticketId": input.ticketId }',
      config: {
        provider: 'mock',
        prompt: 'Propose a refund for ticket {{ input.ticketId }} as JSON.',
        temperature: 0.9,
        mock: { replies },
      },
      output,
      retry: { maxAttempts: 3, initialIntervalMs: 5, variants: [{ temperature: 0.1 }] },
    },
    { id: 'done', kind: 'end' },
    { id: 'gave_up', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'ok', from: 'propose', to: 'done' },
    { id: 'failed', from: 'propose', to: 'gave_up', on: 'failed' },
  ],
});

const refundSchema = {
  type: 'object',
  required: ['decision', 'amount'],
  properties: { decision: { type: 'string', enum: ['refund', 'deny'] }, amount: { type: 'number' } },
};

describe('agent steps on the engine', () => {
  it('retries a malformed reply with the lower-temperature variant and succeeds, recording usage', async () => {
    h = harness();
    const { runId } = h.start(
      workflow(
        [
          { text: 'Sure! I think a refund is fair.', usage: { inputTokens: 120, outputTokens: 9 } },
          { output: { decision: 'refund', amount: 49.9 }, usage: { inputTokens: 130, outputTokens: 14 } },
        ],
        refundSchema,
      ),
      { ticketId: 'T-1' },
    );
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(types(events, 'propose').filter((t) => t.startsWith('attempt_') || t === 'retry_scheduled')).toEqual([
      'attempt_started', 'attempt_failed', 'retry_scheduled', 'attempt_started', 'attempt_succeeded',
    ]);

    const started = events.filter((e) => e.type === 'attempt_started' && e.step === 'propose');
    expect(started.map((e) => (e.data as RunEvent<'attempt_started'>['data']).variant)).toEqual([null, 0]);
    expect(started[1]?.reason).toBe('retry variant 1');

    const failed = data(events, 'attempt_failed', 'propose')[0];
    expect(failed?.error.code).toBe('invalid_json_reply');
    expect(failed?.retryable).toBe(true);
    expect(failed?.output).toEqual({ text: 'Sure! I think a refund is fair.' });
    expect(failed?.meta).toMatchObject({ provider: 'mock', model: 'mock', usage: { inputTokens: 120, outputTokens: 9 } });

    const succeeded = data(events, 'attempt_succeeded', 'propose')[0];
    expect(succeeded?.output).toEqual({ decision: 'refund', amount: 49.9 });
    expect(succeeded?.meta).toMatchObject({ provider: 'mock', model: 'mock', usage: { inputTokens: 130, outputTokens: 14 } });
    expect(succeeded?.meta?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('leaves checking the output schema to the engine: valid JSON of the wrong shape is invalid_output', async () => {
    h = harness();
    const { runId } = h.start(workflow([{ output: { decision: 'maybe' } }], refundSchema), { ticketId: 'T-2' });
    expect(await h.engine.settled(runId)).toBe('failed');
    const failures = data(h.events(runId), 'attempt_failed', 'propose');
    expect(failures.map((f) => f.error.code)).toEqual(['invalid_output', 'invalid_output', 'invalid_output']);
    expect(failures[0]?.output).toEqual({ decision: 'maybe' });
  });

  it('does not retry a mock error whose status is a client error', async () => {
    h = harness();
    const { runId } = h.start(workflow([{ error: { code: 'bad_request', message: 'unknown model', status: 400 } }], refundSchema), { ticketId: 'T-3' });
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect(data(events, 'attempt_failed', 'propose').map((f) => [f.error.code, f.retryable, f.meta?.status])).toEqual([['bad_request', false, 400]]);
    expect(events.find((e) => e.type === 'step_settled' && e.step === 'propose')?.reason).toBe('bad_request is not retryable');
  });
});
