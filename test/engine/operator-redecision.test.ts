// An operator's retry, skip or resolve of a step re-decides what followed it (path_reopened). An
// external step after it that had already done its work must not do it again by itself: with its
// input unchanged it reuses its evidence, with its input changed it waits for a decision. Effects
// are counted by a real HTTP server on 127.0.0.1 standing in for the payment API.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { startServer, json, type Received, type TestServer } from './executors/http/http-test-server.ts';
import { harness, types, type Harness } from './harness.ts';

let h: Harness | undefined;
let api: TestServer | undefined;
afterEach(async () => {
  h?.close();
  await api?.close();
});

/** The write's reply never arrives (the step times out: unknown) until `answer` is set. */
function paymentApi(): { server: Promise<TestServer>; writes: () => number; charges: () => number; answerWrites: () => void } {
  let answering = false;
  const server = startServer((req: Received, res: ServerResponse) => {
    if (req.url === '/write') {
      if (answering) json(res, 200, { id: 'A17', revision: 4 });
      return; // left hanging: the attempt times out, and its effect is unknown
    }
    if (req.url === '/charge') return json(res, 201, { chargeId: `CH-${req.body.length}` });
    json(res, 404, { error: 'no such route' });
  });
  const count = (url: string) => () => (api?.received ?? []).filter((r) => r.url === url).length;
  return { server, writes: count('/write'), charges: count('/charge'), answerWrites: () => (answering = true) };
}

/**
 * The write's timeout: it must outlast connecting on a loaded machine (a timeout while still
 * connecting is a failed attempt, nothing sent, and the run ends at write_failed), and then ends
 * the hanging request as unknown. 300 ms was too short under load (a loaded `npm test`, 2026-12-02).
 */
const WRITE_TIMEOUT_MS = 2000;

/**
 * write (external) → stamp (a transform that gives its activation) → charge (external) → confirm
 * (a person) → done; `w` is taken on unknown and on succeeded.
 */
const workflow = (base: string, chargeBody: string) => ({
  format: 'weft/v1',
  id: 'charge-after-write',
  version: 1,
  name: 'a charge after an uncertain write',
  steps: [
    { id: 'write', kind: 'http', effect: 'external', timeoutMs: WRITE_TIMEOUT_MS, output: { type: 'object' }, config: { method: 'PUT', url: `${base}/write`, body: '{"status": "archived"}', expectStatus: [200] } },
    { id: 'stamp', kind: 'transform', config: { expression: '{"pass": $activation}' } },
    { id: 'charge', kind: 'http', effect: 'external', config: { method: 'POST', url: `${base}/charge`, body: chargeBody, expectStatus: [201] } },
    { id: 'confirm', kind: 'human', deadlineMs: 86_400_000, config: { task: 'approve', title: 'Confirm the charge' } },
    { id: 'done', kind: 'end' },
    { id: 'write_failed', kind: 'end', config: { status: 'failed' } },
    { id: 'charge_unsure', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'w', from: 'write', to: 'stamp', on: ['unknown', 'succeeded'] },
    { id: 'stamped', from: 'stamp', to: 'charge' },
    { id: 'write_refused', from: 'write', to: 'write_failed', on: 'failed' },
    { id: 'charged', from: 'charge', to: 'confirm' },
    { id: 'charge_unsure_end', from: 'charge', to: 'charge_unsure', on: ['unknown', 'failed'] },
    { id: 'confirmed', from: 'confirm', to: 'done' },
    { id: 'not_confirmed', from: 'confirm', to: 'charge_unsure', on: ['rejected', 'expired'] },
  ],
});

/** Starts a run and waits until the unknown write has led to a charge and the confirm task is open. */
async function chargedAfterUnknownWrite(chargeBody = '{"amount": 12}') {
  const p = paymentApi();
  api = await p.server;
  h = harness();
  const { runId } = h.start(workflow(api.base, chargeBody));
  expect(await h.engine.settled(runId)).toBe('waiting');
  const m = h.model(runId);
  expect(m.steps.get('write')?.state).toBe('unknown');
  expect(m.steps.get('charge')?.state).toBe('succeeded');
  expect(m.steps.get('confirm')?.state).toBe('waiting');
  expect(p.charges()).toBe(1);
  return { runId, ...p };
}

const tasksOpened = (runId: string): number => (h?.events(runId) ?? []).filter((e) => e.type === 'task_opened').length;

describe('an operator action upstream of an external step that already ran', () => {
  it('resolve: the charge is not sent again; its evidence is reused and the open task stays as it is', async () => {
    const { runId, charges } = await chargedAfterUnknownWrite();
    await h?.engine.resolveStep(runId, 'write', 'succeeded', 'ops', 'the record shows revision 4', { id: 'A17', revision: 4 });
    expect(await h?.engine.settled(runId)).toBe('waiting');
    const events = h?.events(runId) ?? [];
    const reopened = events.find((e) => e.type === 'path_reopened');
    expect(reopened?.step).toBe('write');
    expect(reopened?.reason).toContain('resolve of "write" by ops: what followed its earlier outcome is decided again');
    expect(reopened?.reason).toContain('charge (succeeded in activation 1)');
    const reused = events.find((e) => e.type === 'evidence_reused' && e.step === 'charge');
    expect(reused).toMatchObject({ activation: 2, data: { evidenceId: 'charge/1.1' } });
    expect(reused?.reason).toContain('its effect is not repeated');
    expect(types(events, 'charge').filter((t) => t === 'attempt_started')).toHaveLength(1);
    expect(charges()).toBe(1);
    expect(tasksOpened(runId)).toBe(1);
    await h?.engine.decideTask(runId, 'confirm', { decision: 'approved', by: 'ops' });
    expect(await h?.engine.settled(runId)).toBe('succeeded');
    expect(charges()).toBe(1);
  });

  it('retry: the write runs again (the operator asked for it), the charge does not', async () => {
    const { runId, charges, writes, answerWrites } = await chargedAfterUnknownWrite();
    answerWrites();
    await h?.engine.retryStep(runId, 'write', 'ops', 'the records API is back');
    expect(await h?.engine.settled(runId)).toBe('waiting');
    expect(writes()).toBe(2);
    expect(charges()).toBe(1);
    const record = restartRecord(h?.model(runId) ?? (undefined as never));
    expect(record.steps.find((s) => s.id === 'charge')).toMatchObject({ state: 'succeeded', activation: 2, evidence: { id: 'charge/1.1' } });
    expect(tasksOpened(runId)).toBe(1);
  });

  it('skip, when the charge\'s input changes (it reads the pass it is in): it waits for a decision; keep settles it without a second charge', async () => {
    const { runId, charges } = await chargedAfterUnknownWrite('{"amount": 12, "pass": steps.stamp.output.pass}');
    await h?.engine.skipStep(runId, 'write', { id: 'A17', revision: 5 }, 'ops', 'written by hand at revision 5');
    expect(await h?.engine.settled(runId)).toBe('needs_attention');
    const held = h?.events(runId).find((e) => e.type === 'revision_held' && e.step === 'charge');
    expect(held?.reason).toContain('its input changed after its effect happened');
    expect(charges()).toBe(1);
    await h?.engine.keepStep(runId, 'charge', 'ops', 'the customer was charged once; that stands');
    expect(await h?.engine.settled(runId)).toBe('waiting');
    expect(charges()).toBe(1);
    expect(tasksOpened(runId)).toBe(1);
  });

  it('skip, when the charge\'s input is unchanged: its evidence is reused', async () => {
    const { runId, charges } = await chargedAfterUnknownWrite('{"amount": 12, "record": "A17"}');
    await h?.engine.skipStep(runId, 'write', { id: 'A17', revision: 4 }, 'ops', 'checked by hand');
    expect(await h?.engine.settled(runId)).toBe('waiting');
    expect(h?.events(runId).some((e) => e.type === 'evidence_reused' && e.step === 'charge')).toBe(true);
    expect(charges()).toBe(1);
  });
});
