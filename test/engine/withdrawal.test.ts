// A step activated by an edge that a later pass no longer takes is withdrawn: the record-update
// shape of examples/record-update.weft.json, where an unknown write leads to verify, a failed
// verify opens a reconcile task, and then the operator resolves the write with evidence. Verify
// runs again and passes; the reconcile task it had opened no longer answers any question, so it
// is closed (skipped, with the reason), and notify_intent (which waits for both its incoming
// edges) runs. Without the withdrawal the run would wait forever on a task nobody needs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTasks } from '../../shared/run/open-tasks.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { harness, until, type Harness } from './harness.ts';

const RECORD_UPDATE = {
  format: 'weft/v1',
  id: 'withdrawal-record-update',
  version: 1,
  name: 'record update, shaped like the example',
  steps: [
    { id: 'validate', kind: 'transform', config: { expression: '{"recordId": "A17", "value": "archived"}' } },
    {
      id: 'write',
      kind: 'command',
      effect: 'external',
      timeoutMs: 300,
      idempotencyKey: '"A17:status"',
      // The remote applies the write, but its reply never arrives.
      config: { argv: ['sh', '-c', 'sleep 30'] },
    },
    {
      id: 'verify',
      kind: 'command',
      config: { argv: ['sh', '-c', 'cat remote.json 2>/dev/null || echo null'] },
      accept: 'output.value = "archived"',
    },
    { id: 'notify_intent', kind: 'transform', config: { expression: '{"notify": "R2"}' } },
    { id: 'done', kind: 'end' },
    { id: 'write_failed', kind: 'end', config: { status: 'failed' } },
    { id: 'reconcile', kind: 'human', deadlineMs: 86400000, config: { task: 'review', title: 'Reconcile the record' } },
    { id: 'unresolved', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'validate_to_write', from: 'validate', to: 'write' },
    { id: 'write_to_verify', from: 'write', to: 'verify', on: 'succeeded' },
    { id: 'write_unknown_to_verify', from: 'write', to: 'verify', on: 'unknown' },
    { id: 'write_failed_to_end', from: 'write', to: 'write_failed', on: 'failed' },
    { id: 'verify_to_intent', from: 'verify', to: 'notify_intent' },
    { id: 'verify_failed_to_reconcile', from: 'verify', to: 'reconcile', on: ['failed', 'timed_out'] },
    { id: 'reconciled_to_intent', from: 'reconcile', to: 'notify_intent' },
    { id: 'reconcile_rejected', from: 'reconcile', to: 'unresolved', on: ['rejected', 'expired'] },
    { id: 'intent_to_done', from: 'notify_intent', to: 'done' },
  ],
};

let h: Harness | undefined;
afterEach(() => h?.close());

describe('withdrawing an activation whose edge is no longer taken', () => {
  it('closes the reconcile task when a resolved write lets verify pass, and notify_intent runs', async () => {
    h = harness();
    const { runId } = h.start(RECORD_UPDATE);
    const model = () => h?.engine.model(runId) ?? h?.model(runId) ?? (() => { throw new Error('run not loaded'); })();
    const step = (id: string) => model().steps.get(id);

    await until(() => step('reconcile')?.state === 'waiting', 'verify to fail and open the reconcile task');
    expect(step('write')?.state).toBe('unknown');
    expect(step('verify')?.state).toBe('failed');
    expect(openTasks(model()).map((t) => t.stepId)).toEqual(['reconcile']);

    // The operator finds the write in the remote's log; the record now reads as intended.
    writeFileSync(join(h.dir, 'remote.json'), JSON.stringify({ value: 'archived' }));
    await h.engine.resolveStep(runId, 'write', 'succeeded', 'ops', 'found in the records audit log', { revision: 4 });

    await until(() => model().state === 'succeeded', 'the run to succeed');
    expect(step('verify')?.state).toBe('succeeded');
    expect(step('notify_intent')?.state).toBe('succeeded');
    expect(step('done')?.state).toBe('succeeded');
    expect(step('reconcile')?.state).toBe('skipped');
    expect(step('unresolved')?.state).toBe('skipped');
    expect(openTasks(model())).toEqual([]);
    // The task's attempt ends with the withdrawal: nothing of a settled step looks in flight.
    expect(step('reconcile')?.attempts.map((a) => [a.state, a.endedAt !== null])).toEqual([['cancelled', true]]);

    // The withdrawal is an event with its reason, naming the edge that no longer holds.
    const settled = h.events(runId).filter((e) => e.type === 'step_settled' && e.step === 'reconcile');
    expect(settled).toHaveLength(1);
    expect(settled[0]?.reason).toMatch(/withdrawn: .*"verify_failed_to_reconcile".* no longer taken/);
    const record = restartRecord(model());
    expect(record.steps.find((s) => s.id === 'reconcile')).toMatchObject({ state: 'skipped', next: expect.stringMatching(/^skipped: withdrawn: the edge that activated it, "verify_failed_to_reconcile", is no longer taken/) });
    expect(record.steps.find((s) => s.id === 'unresolved')?.next).toBe('skipped: no incoming path was taken');
  });

  it('keeps a waiting step whose other incoming edge is still taken', async () => {
    h = harness();
    // review is reached from either check; only check_b is re-decided (not taken) later.
    const { runId } = h.start({
      format: 'weft/v1',
      id: 'withdrawal-keep',
      version: 1,
      name: 'two ways into one task',
      steps: [
        { id: 'start', kind: 'transform', config: { expression: '{}' } },
        { id: 'check_a', kind: 'transform', config: { expression: '{"ok": false}' }, accept: 'output.ok' },
        { id: 'check_b', kind: 'command', config: { argv: ['sh', '-c', 'cat b.json 2>/dev/null || echo "{\\"ok\\": false}"'] }, accept: 'output.ok' },
        { id: 'review', kind: 'human', deadlineMs: 86400000, config: { task: 'review', title: 'Look at it' } },
        { id: 'done', kind: 'end' },
      ],
      edges: [
        { id: 'to_a', from: 'start', to: 'check_a' },
        { id: 'to_b', from: 'start', to: 'check_b' },
        { id: 'a_failed', from: 'check_a', to: 'review', on: 'failed' },
        { id: 'b_failed', from: 'check_b', to: 'review', on: 'failed' },
        { id: 'reviewed', from: 'review', to: 'done' },
      ],
    });
    const model = () => h?.engine.model(runId) ?? (() => { throw new Error('run not loaded'); })();
    await until(() => model().steps.get('review')?.state === 'waiting', 'the review task to open');
    writeFileSync(join(h.dir, 'b.json'), JSON.stringify({ ok: true }));
    await h.engine.retryStep(runId, 'check_b', 'ops', 'the check reads again');
    await until(() => model().steps.get('check_b')?.state === 'succeeded', 'check_b to pass on retry');
    // check_a's failure still calls for the review.
    expect(model().steps.get('review')?.state).toBe('waiting');
    expect(openTasks(model()).map((t) => t.stepId)).toEqual(['review']);
  });
});
