// The http executor inside the real engine: an external write whose reply never comes is
// `unknown`, is not retried, and routes to a verification GET that finds out what happened.
import { afterEach, describe, expect, it } from 'vitest';
import { clockAfter } from '../../clock-after.ts';
import { data, harness, type Harness } from '../../harness.ts';
import { json, startServer, type TestServer } from './http-test-server.ts';

let h: Harness | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  h?.close();
  h = undefined;
  await server?.close();
  server = undefined;
});

const workflow = {
  format: 'weft/v1',
  id: 'http-write-verify',
  version: 1,
  name: 'Write, verify when the reply is lost',
  input: {
    type: 'object',
    required: ['apiBase', 'recordId'],
    properties: { apiBase: { type: 'string' }, recordId: { type: 'string' } },
  },
  steps: [
    {
      id: 'write',
      kind: 'http',
      config: { method: 'PUT', url: '{{ input.apiBase }}/records/{{ input.recordId }}', body: '{ "status": "paid" }' },
      effect: 'external',
      idempotencyKey: '"rec-" & input.recordId',
      timeoutMs: 300,
      retry: { maxAttempts: 3, initialIntervalMs: 10 },
    },
    {
      id: 'verify',
      kind: 'http',
      config: { method: 'GET', url: '{{ input.apiBase }}/records/{{ input.recordId }}' },
      output: {
        type: 'object',
        required: ['status', 'body'],
        properties: { status: { type: 'integer' }, body: { type: 'object', properties: { status: { type: 'string' } } } },
      },
      accept: 'output.body.status = "paid"',
      onExhausted: 'escalate',
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'write_settled', from: 'write', to: 'verify', on: ['succeeded', 'unknown'] },
    { id: 'verified', from: 'verify', to: 'done' },
  ],
};

describe('http steps in the engine', () => {
  it('routes a timed-out external PUT along its unknown edge to a verifying GET, without retrying it', async () => {
    const records = new Map<string, unknown>();
    // The server applies the PUT and never answers it: the reply is lost.
    server = await startServer((req, res) => {
      const id = req.url.split('/').pop() ?? '';
      if (req.method === 'PUT') records.set(id, JSON.parse(req.body) as unknown);
      else json(res, 200, records.get(id) ?? {});
    });
    // The reply is lost after the PUT arrived: the write's timeout waits for the server to have it.
    const put = server;
    h = harness(undefined, clockAfter(() => put.received.some((r) => r.method === 'PUT'), 'the PUT to reach the server'));
    const { runId } = h.start(workflow, { apiBase: server.base, recordId: 'r7' });
    expect(await h.engine.settled(runId)).toBe('succeeded');

    const puts = server.received.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.headers['idempotency-key']).toBe('rec-r7');
    expect(server.received.filter((r) => r.method === 'GET')).toHaveLength(1);

    const events = h.events(runId);
    expect(data(events, 'attempt_started', 'write')).toHaveLength(1);
    expect(data(events, 'attempt_unknown', 'write')).toHaveLength(1);
    expect(data(events, 'retry_scheduled', 'write')).toHaveLength(0);
    expect(data(events, 'step_settled', 'write')[0]?.outcome).toBe('unknown');
    expect(data(events, 'attempt_succeeded', 'verify')[0]?.output).toMatchObject({ status: 200, body: { status: 'paid' } });
    expect(h.model(runId).steps.get('write')?.state).toBe('unknown');
  });
});
