// Replays on real runs (issue 22 part 1): runs of record-update made by the real engine with the
// real http executor against a counting server on 127.0.0.1, on a real SQLite file, then replayed
// against versions that change nothing (same), fix the failure (fixed), add a step (changed),
// break the success (regressed) and call a step the source never called (incomplete, or answered
// by a script). The server's count never moves during a replay. Replays are stored apart: no
// runs list, stats or version history counts them, and an engine restarted on the store never
// picks one up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayResult } from '../../shared/api/replay-result.ts';
import { replayRun } from '../../engine/evolution/replay-run.ts';
import { replayRuns } from '../../engine/evolution/replay-batch.ts';
import { rebuildProjections } from '../../engine/runtime/projections.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { harness, parseWorkflow, until, type Harness } from '../engine/harness.ts';
import { countingServer, recordUpdate, type CountingServer } from './replay-fixture.ts';

let server: CountingServer;
let h: Harness;
const runs: Record<string, string> = {};

beforeAll(async () => {
  server = await countingServer();
  h = harness();
  for (const [name, n] of [['ok', 5], ['bad', 20]] as const) {
    const { runId } = h.start(recordUpdate(server.base), { n });
    await h.engine.settled(runId);
    runs[name] = runId;
  }
  expect(h.model(runs['ok'] ?? '').state).toBe('succeeded');
  expect(h.model(runs['bad'] ?? '').state).toBe('failed');
  expect(server.count).toBe(3); // fetch + save, fetch
});

afterAll(async () => {
  h.close();
  await server.close();
});

const replay = async (run: string, edit: Parameters<typeof recordUpdate>[1], script?: Parameters<typeof replayRun>[3]['script']): Promise<ReplayResult> => {
  const before = server.count;
  const workflow = parseWorkflow(recordUpdate(server.base, edit));
  const result = await replayRun(h.store, runs[run] ?? '', { workflow, file: 'draft.weft.json' }, { clock: systemClock, random: systemRandom, ...(script === undefined ? {} : { script }) });
  expect(server.count).toBe(before); // a replay never calls the outside world
  return ReplayResult.parse(result);
};

describe('replay verdicts', () => {
  it('same: the same definition gives the same run', async () => {
    const r = await replay('ok', {});
    expect(r.verdict).toBe('same');
    expect(r.replayState).toBe('succeeded');
    expect(r.comparison.firstDifference).toBeNull();
    // The replay's save got the recorded answer, after the source's own call.
    const save = r.comparison.steps.find((s) => s.id === 'save');
    expect(save?.b?.output).toEqual(save?.a?.output);
    expect((await replay('bad', {})).verdict).toBe('same');
  });

  it('fixed: a record that is not ok no longer fails the run', async () => {
    const r = await replay('bad', { rejectedStatus: null, version: 2 });
    expect(r.verdict).toBe('fixed');
    expect([r.sourceState, r.replayState]).toEqual(['failed', 'succeeded']);
    expect(r.against).toMatchObject({ workflowId: 'record-update', file: 'draft.weft.json' });
  });

  it('changed: both succeed, the new version adds a step', async () => {
    const r = await replay('ok', { tag: true, version: 3 });
    expect(r.verdict).toBe('changed');
    // save is left by another edge (to tag): the first difference is its path.
    expect(r.comparison.firstDifference).toMatchObject({ stepId: 'save', kind: 'path' });
    expect(r.comparison.steps.find((s) => s.id === 'tag')?.a).toBeNull();
  });

  it('regressed: a stricter condition rejects a record the source saved', async () => {
    const r = await replay('ok', { ok: 'output.n < 3', version: 4 });
    expect(r.verdict).toBe('regressed');
    expect(r.replayState).toBe('failed');
  });

  it('incomplete: a step the source never called needs a recording', async () => {
    const r = await replay('bad', { ok: 'output.n < 100', version: 5 });
    expect(r.verdict).toBe('incomplete');
    expect(r.needsRecording).toMatchObject({ stepId: 'save', reason: 'new step' });
    expect(r.replayState).toBe('running');
  });

  it('incomplete: a changed input names the first path that differs', async () => {
    const edited = recordUpdate(server.base, { version: 6 });
    const steps = edited['steps'] as { id: string; input?: string }[];
    const save = steps.find((s) => s.id === 'save');
    if (save !== undefined) save.input = '$merge([steps.fetch.output.body, {"source": "replay"}])';
    const before = server.count;
    const r = await replayRun(h.store, runs['ok'] ?? '', { workflow: parseWorkflow(edited), file: 'v6' }, { clock: systemClock, random: systemRandom });
    expect(server.count).toBe(before);
    expect(r.verdict).toBe('incomplete');
    expect(r.needsRecording).toMatchObject({ stepId: 'save', reason: 'input changed', path: '$.source' });
  });

  it('a script answers a call with no recording', async () => {
    const r = await replay('bad', { ok: 'output.n < 100', version: 5 }, new Map([['save', [{ succeed: { status: 200, headers: {}, body: { saved: true } } }]]]));
    expect(r.verdict).toBe('fixed');
    expect(r.needsRecording).toBeUndefined();
  });

  it('refuses a replay as the source, another workflow, and an unknown run', async () => {
    const r = await replay('ok', {});
    const workflow = parseWorkflow(recordUpdate(server.base));
    const o = { clock: systemClock, random: systemRandom };
    await expect(replayRun(h.store, r.replayRunId, { workflow }, o)).rejects.toThrow(/is itself a replay/);
    await expect(replayRun(h.store, runs['ok'] ?? '', { workflow: { ...workflow, id: 'other' } }, o)).rejects.toThrow(/run of workflow "record-update".*of "other"/);
    await expect(replayRun(h.store, 'nosuchrun', { workflow }, o)).rejects.toThrow(/no run "nosuchrun"/);
  });
});

describe('a batch', () => {
  it('groups runs still failing at the same step apart from the same ones', async () => {
    const before = server.count;
    const workflow = parseWorkflow(recordUpdate(server.base));
    const b = await replayRuns(h.store, { workflow: 'record-update' }, { workflow, version: 1 }, { clock: systemClock, random: systemRandom });
    expect(server.count).toBe(before);
    expect(b.rows.map((r) => [r.sourceRunId, r.verdict, r.group, r.failingStep])).toEqual([
      [runs['bad'], 'same', 'still failing at the same step', 'rejected'],
      [runs['ok'], 'same', 'same', null],
    ]);
    expect(b.summary).toBe('1 still failing at the same step, 1 same');
    expect(b.counts).toEqual({ same: 2, fixed: 0, changed: 0, regressed: 0, incomplete: 0 });
  });
});

describe('replays are stored apart', () => {
  it('no list, stat or history counts a replay; an engine restarted on the store never picks one up', async () => {
    const incomplete = await replay('bad', { ok: 'output.n < 100', version: 5 });
    const done = await replay('ok', {});
    const real = new Set([runs['ok'], runs['bad']]);
    expect(new Set(h.store.runPage({}).rows.map((r) => r.id))).toEqual(real);
    expect(new Set(h.store.listRuns().map((r) => r.id))).toEqual(real);
    expect(h.store.runIdsOfWorkflow('record-update')).toHaveLength(2);
    expect(h.store.unfinishedRunIds()).toEqual([]);
    expect(h.store.runningRunIds('record-update')).toEqual([]); // the parallel-run limits' count
    expect(h.engine.workflowStats('record-update').runs).toHaveLength(2);
    expect(h.store.definitions.history('record-update').map((v) => [v.version, v.runCount])).toEqual([[1, 2]]);
    expect(h.store.definitions.latestVersion('record-update')).toBe(1);
    // Listed only when asked.
    const replays = h.store.runPage({ kind: 'replay' }).rows.map((r) => r.id);
    expect(replays).toEqual(expect.arrayContaining([incomplete.replayRunId, done.replayRunId]));
    // They open like any run.
    expect(h.model(incomplete.replayRunId).state).toBe('running');
    const events = h.store.readEvents(incomplete.replayRunId).length;
    const engine = h.restart();
    engine.recover();
    await engine.settled(runs['ok'] ?? '');
    expect(engine.model(incomplete.replayRunId)).toBeUndefined();
    expect(() => engine.load(incomplete.replayRunId)).toThrow(/is a replay/);
    expect(h.store.readEvents(incomplete.replayRunId)).toHaveLength(events);
    expect(h.store.runPage({}).rows).toHaveLength(2);
    // Projections rebuilt from the log give a replay its row back, and no step rows.
    rebuildProjections(h.store);
    expect(h.store.stepProjections(incomplete.replayRunId)).toEqual([]);
    expect(h.store.unfinishedRunIds()).toEqual([]);
    expect(h.store.runPage({ kind: 'replay' }).rows.map((r) => r.id)).toContain(incomplete.replayRunId);
  });
});

describe('events and waits', () => {
  it('a replay gets the events the source was delivered, and passes its waits in virtual time', async () => {
    const flow = {
      format: 'weft/v1', id: 'paid-flow', version: 1, name: 'Paid flow',
      steps: [
        { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 86_400_000 },
        { id: 'cool', kind: 'wait', config: { durationMs: 50 } },
        { id: 'book', kind: 'http', input: 'steps.paid.output', config: { method: 'POST', url: `${server.base}/save`, body: 'steps.paid.output' } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'a', from: 'paid', to: 'cool' }, { id: 'b', from: 'cool', to: 'book' }, { id: 'c', from: 'book', to: 'done' }],
    };
    const { runId } = h.start(flow, { orderId: 'A17' });
    await h.engine.sendEvent({ id: 'ev-1', name: 'payment.received', key: 'A17', data: { amount: 12 }, receivedAt: Date.now() });
    await until(() => {
      h.engine.flush();
      return h.store.getRun(runId)?.state === 'succeeded';
    }, 'the paid run ends after its wait');
    const before = server.count;
    const r = await replayRun(h.store, runId, { workflow: parseWorkflow(flow), version: 1 }, { clock: systemClock, random: systemRandom });
    expect(server.count).toBe(before);
    // The wait fired at the same offset in virtual time; only the real engine's milliseconds
    // between steps differ, and the verdict does not count the clock's own fields.
    expect(r.comparison.steps.filter((s) => s.differs.length > 0).map((s) => [s.id, s.fields.output.map((f) => f.path)])).toEqual(
      r.comparison.firstDifference === null ? [] : [['cool', ['$.firedAt']]],
    );
    expect(r.verdict).toBe('same');
    expect(r.comparison.steps.find((s) => s.id === 'paid')?.b?.output).toEqual(r.comparison.steps.find((s) => s.id === 'paid')?.a?.output);
  });
});

describe('a person\'s decisions', () => {
  // A clock that moves on every reading, as a busy machine's can between two readings a millisecond apart.
  let ticks = 0;
  const ticking = { ...systemClock, now: () => Date.now() + ticks++ };
  const review = {
    format: 'weft/v1', id: 'review-flow', version: 1, name: 'Review flow',
    steps: [
      { id: 'check', kind: 'human', deadlineMs: 86_400_000, config: { task: 'approve', title: 'Check the record' } },
      { id: 'done', kind: 'end' },
      { id: 'refused', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [{ id: 'ok', from: 'check', to: 'done' }, { id: 'no', from: 'check', to: 'refused', on: 'rejected' }],
  };

  it('record their time once: the output says when the decision was recorded, and a replay gives the same output', async () => {
    const p = harness(undefined, ticking);
    try {
      for (const decision of ['approved', 'rejected'] as const) {
        const { runId } = p.start(review, {});
        await until(() => p.store.getRun(runId)?.state === 'waiting', 'the task opens');
        await p.engine.decideTask(runId, 'check', { decision, by: 'ops', ...(decision === 'rejected' ? { reason: 'wrong record' } : {}) });
        await p.engine.settled(runId);
        const events = p.events(runId);
        const decided = events.find((e) => e.type === 'task_decided');
        const ended = events.find((e) => e.step === 'check' && (e.type === 'attempt_succeeded' || e.type === 'attempt_failed'));
        expect((ended?.data as { output?: { at?: string } }).output?.at).toBe(new Date(decided?.at ?? 0).toISOString());
        const r = await replayRun(p.store, runId, { workflow: parseWorkflow(review), version: 1 }, { clock: systemClock, random: systemRandom });
        expect(r.verdict).toBe('same');
        const check = r.comparison.steps.find((s) => s.id === 'check');
        expect(check?.fields.output).toEqual([]);
        expect(check?.b?.output).toEqual(check?.a?.output);
        expect(r.comparison.firstDifference).toBeNull();
      }
    } finally {
      p.close();
    }
  });

  it('a deadline\'s rejection says when the deadline passed, as recorded', async () => {
    const p = harness(undefined, ticking);
    try {
      const quick = { ...review, id: 'quick-review', steps: review.steps.map((s) => (s.id === 'check' ? { ...s, deadlineMs: 50, config: { ...s.config, onExpire: 'reject' } } : s)) };
      const { runId } = p.start(quick, {});
      await until(() => p.store.getRun(runId)?.state === 'failed', 'the deadline rejects the task');
      const events = p.events(runId);
      const passed = events.find((e) => e.type === 'deadline_passed');
      const failed = events.find((e) => e.type === 'attempt_failed' && e.step === 'check');
      expect((failed?.data as { output?: { by?: string; at?: string } }).output).toMatchObject({ by: 'deadline', at: new Date(passed?.at ?? 0).toISOString() });
    } finally {
      p.close();
    }
  });
});
