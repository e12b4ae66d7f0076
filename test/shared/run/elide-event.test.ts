// elideEvent (what `GET /api/runs/:id/events?elide=` and the live stream send): each large value
// of an event's data becomes a stub, but only where the event's schema takes any JSON value. A
// field with a shape of its own (an attempt's error, a step's edge decisions) stays whole, so
// the elided event still parses as a RunEventRecord: a client that checks what it receives (the
// app does) never drops a frame for it.
import { describe, expect, it } from 'vitest';
import { isElidedValue } from '../../../shared/api/elided-value.ts';
import { RunEventRecord } from '../../../shared/api/run-event-record.ts';
import { elideEvent } from '../../../shared/run/elide-values.ts';

const LIMIT = 64 * 1024;
const big = 'x'.repeat(100_000);
const envelope = { runId: 'r1', at: 1_764_585_146_442, step: 'fetch', activation: 1, attempt: 1, reason: null };

describe('elideEvent', () => {
  it('stubs a large output but keeps a large error whole, and the event still parses', () => {
    const event = RunEventRecord.parse({ ...envelope, seq: 7, type: 'attempt_failed', data: { error: { code: 'script_error', message: `it broke: ${big}` }, retryable: false, output: { text: big } } });
    const cut = elideEvent(event, LIMIT);
    const data = cut.data as Record<string, unknown>;
    expect(isElidedValue(data['output'])).toBe(true);
    expect(data['error']).toEqual({ code: 'script_error', message: `it broke: ${big}` });
    expect(RunEventRecord.safeParse(cut).success).toBe(true);
  });

  it('keeps a step’s many edge decisions whole', () => {
    const edges = Array.from({ length: 2000 }, (_, i) => ({ id: `edge_${i}`, taken: i % 2 === 0, why: `condition ${i} held for this branch of the router` }));
    const event = RunEventRecord.parse({ ...envelope, seq: 9, type: 'step_settled', data: { outcome: 'succeeded', edges } });
    expect(JSON.stringify(edges).length).toBeGreaterThan(LIMIT);
    const cut = elideEvent(event, LIMIT);
    expect(cut).toEqual(event);
    expect(RunEventRecord.safeParse(cut).success).toBe(true);
  });

  it('stubs a run’s large input, and the stub names its place', () => {
    const event = RunEventRecord.parse({ ...envelope, step: null, activation: null, attempt: null, seq: 1, type: 'run_created', data: { workflowId: 'w', version: 1, definitionHash: 'h', workspaceDir: '/w', input: { pad: big } } });
    const cut = elideEvent(event, LIMIT);
    const input = (cut.data as Record<string, unknown>)['input'];
    expect(isElidedValue(input) && input.path).toBe('events[1].data.input');
    expect(RunEventRecord.safeParse(cut).success).toBe(true);
  });
});
