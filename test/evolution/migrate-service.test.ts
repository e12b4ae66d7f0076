// weft migrate through the service, on a real SQLite file with the real engine: the key case
// (research-review v2 waiting on a person moves to a v3 that adds a step after the review, the
// person decides, and the run finishes on v3 with the new step run, also across a restart), and
// each check of the plan with a fixture that makes it refuse or ask.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineService } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

type Json = Record<string, unknown>;
const example = JSON.parse(readFileSync(join(import.meta.dirname, '../../examples/research-review.weft.json'), 'utf8')) as Json & { steps: Json[]; edges: Json[] };

/** research-review v3: a `notify` transform between review and approved. */
function v3(): Json {
  const edges = example.edges.filter((e) => e.id !== 'review_approved');
  return {
    ...example,
    version: 3,
    steps: [...example.steps, { id: 'notify', kind: 'transform', config: { expression: '{ "title": steps.draft.output.title, "approvedBy": steps.review.output.by }' } }],
    edges: [...edges, { id: 'review_to_notify', from: 'review', to: 'notify', on: 'succeeded' }, { id: 'notify_approved', from: 'notify', to: 'approved' }],
  };
}

interface Fixture { dir: string; dbPath: string; env: NodeJS.ProcessEnv; session: EngineSession; service: EngineService }
let open: Fixture | undefined;

async function fixture(dir = mkdtempSync(join(tmpdir(), 'weft-migrate-'))): Promise<Fixture> {
  writeFileSync(join(dir, 'research-review.weft.json'), JSON.stringify(example));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  const dbPath = join(dir, 'weft.db');
  const session = await openEngineSession(dbPath, 'migrate test', 'create', env);
  open = { dir, dbPath, env, session, service: new EngineService(session.store, session.engine, dir, env, { actor: 'tester' }) };
  return open;
}

async function reopen(f: Fixture): Promise<Fixture> {
  await f.session.close();
  const session = await openEngineSession(f.dbPath, 'migrate test', 'write', f.env);
  open = { ...f, session, service: new EngineService(session.store, session.engine, f.dir, f.env, { actor: 'tester' }) };
  return open;
}

afterEach(async () => {
  await open?.session.close();
  open = undefined;
});

async function waitingRun(f: Fixture): Promise<string> {
  const { runId } = await f.service.startRun({ workflow: 'research-review', input: { topic: 'durable workflows' } });
  expect(await f.service.settled(runId)).toBe('waiting');
  return runId;
}

const target = (w: Json) => ({ kind: 'definition' as const, workflow: Workflow.parse(w) });

describe('weft migrate (service)', () => {
  it('moves a run waiting on a person to v3, which then runs the new step after the decision and finishes on v3, also after a restart', async () => {
    let f = await fixture();
    const runId = await waitingRun(f);
    const dry = await f.service.migrate([runId], target(v3()), { dryRun: true });
    expect(dry.runs[0]?.plan.verdict).toBe('safe');
    expect(dry.runs[0]?.plan.added).toEqual(['notify']);
    expect(dry.runs[0]?.applied).toBe(false);
    expect(f.session.store.readEvents(runId).some((e) => e.type === 'run_migrated')).toBe(false);

    const report = await f.service.migrate([runId], target(v3()), { reason: 'adds the notify step' });
    expect(report.runs.map((r) => [r.plan.verdict, r.applied])).toEqual([['safe', true]]);
    const migrated = f.session.store.readEvents(runId).filter((e) => e.type === 'run_migrated');
    expect(migrated).toHaveLength(1);
    expect(migrated[0]?.data).toMatchObject({ fromVersion: 2, toVersion: 3, by: 'tester', decisions: {} });
    expect(f.session.store.getRun(runId)?.version).toBe(3);

    // A restart folds the run on v3, still waiting on the review.
    f = await reopen(f);
    f.service.resume();
    const model = foldRun(f.session.store, runId);
    expect(model.workflow.version).toBe(3);
    expect(restartRecord(model).run).toMatchObject({ version: 3, migrations: [{ fromVersion: 2, toVersion: 3, by: 'tester', reason: 'migrated from version 2 to 3 by tester: adds the notify step' }] });
    expect(model.migrations.map((m) => [m.fromVersion, m.toVersion])).toEqual([[2, 3]]);

    await f.service.decide(runId, 'review', { action: 'approve', by: 'ed' });
    expect(await f.service.settled(runId)).toBe('succeeded');
    const after = foldRun(f.session.store, runId);
    expect(after.steps.get('notify')?.state).toBe('succeeded');
    expect(after.steps.get('notify')?.output).toEqual({ title: 'Why durable workflows resume instead of repeat', approvedBy: 'ed' });
    // The research agent ran once, before the migration: nothing ran twice.
    expect(after.steps.get('research')?.attempts).toHaveLength(1);
  });

  it('refuses a run whose waiting step has no counterpart in the new version', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const w = v3();
    const steps = (w.steps as Json[]).filter((s) => s.id !== 'review').concat([{ id: 'check', kind: 'transform', config: { expression: 'steps.draft.output' } }]);
    const edges = (w.edges as Json[]).filter((e) => e.from !== 'review' && e.to !== 'review' && e.id !== 'rereview_approved' && e.to !== 'feedback').map((e) => e);
    const bad = { ...w, steps: steps.filter((s) => !['feedback', 'redraft', 'rereview', 'gave_up', 'review_expired'].includes(s.id as string)), edges: [...edges.filter((e) => ['research_to_draft', 'notify_approved'].includes(e.id as string)), { id: 'd_check', from: 'draft', to: 'check' }, { id: 'check_notify', from: 'check', to: 'notify' }], output: 'steps.draft.output' };
    const notify = (bad.steps as Json[]).find((s) => s.id === 'notify') as Json;
    notify.config = { expression: '{ "title": steps.draft.output.title }' };
    const r = await f.service.migrate([runId], target(bad), {});
    expect(r.runs[0]?.plan.verdict).toBe('refused');
    expect(r.runs[0]?.plan.refusals.map((x) => [x.code, x.step])).toContainEqual(['no_counterpart', 'review']);
    expect(f.session.store.getRun(runId)?.version).toBe(2);
  });

  it('refuses a waiting step whose counterpart is of another kind', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const w = v3();
    w.steps = (w.steps as Json[]).map((s) => (s.id === 'review' ? { id: 'review', kind: 'transform', config: { expression: '{ "by": "auto", "reason": "" }' } } : s));
    const r = await f.service.migrate([runId], target(w), {});
    expect(r.runs[0]?.plan.refusals.map((x) => [x.code, x.step])).toEqual([['kind_changed', 'review']]);
  });

  it('refuses when the new version reads a field the stored output of a completed step lacks, naming step and path', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    const w = v3();
    w.steps = (w.steps as Json[]).map((s) => (s.id === 'notify' ? { ...s, config: { expression: '{ "title": steps.draft.output.title, "summary": steps.draft.output.summary }' } } : s));
    const r = await f.service.migrate([runId], target(w), {});
    expect(r.runs[0]?.plan.verdict).toBe('refused');
    expect(r.runs[0]?.plan.refusals.map((x) => [x.code, x.step, x.path])).toEqual([['output_lacks_read', 'draft', 'steps.draft.output.summary']]);
    expect(f.session.store.readEvents(runId).some((e) => e.type === 'run_migrated')).toBe(false);
  });

  it('asks about a new step upstream of completed work, and skips or runs it as decided', async () => {
    const f = await fixture();
    const a = await waitingRun(f);
    const b = await waitingRun(f);
    const w = v3();
    // `outline` between research and draft: both have completed in these runs.
    w.steps = [...(w.steps as Json[]), { id: 'outline', kind: 'transform', config: { expression: '{ "points": steps.research.output.sources }' } }];
    w.edges = (w.edges as Json[]).filter((e) => e.id !== 'research_to_draft').concat([{ id: 'research_outline', from: 'research', to: 'outline' }, { id: 'outline_draft', from: 'outline', to: 'draft' }]);
    const asked = await f.service.migrate([a, b], target(w), {});
    expect(asked.runs.map((r) => r.plan.verdict)).toEqual(['needs_decision', 'needs_decision']);
    expect(asked.runs[0]?.plan.decisions.map((d) => [d.step, d.before.includes('draft'), d.choice])).toEqual([['outline', true, null]]);
    expect(asked.runs.every((r) => !r.applied)).toBe(true);

    const skipped = await f.service.migrate([a], target(w), { decide: { outline: 'skip' } });
    expect(skipped.runs[0]?.applied).toBe(true);
    const ran = await f.service.migrate([b], target(w), { decide: { outline: 'run' } });
    expect(ran.runs[0]?.applied).toBe(true);
    expect(await f.service.settled(b)).toBe('waiting');
    const mb = foldRun(f.session.store, b);
    expect(mb.steps.get('outline')?.state).toBe('succeeded');
    // draft is not run again after outline ran.
    expect(mb.steps.get('draft')?.attempts).toHaveLength(1);
    expect(foldRun(f.session.store, a).steps.get('outline')?.state).toBe('skipped');
    for (const id of [a, b]) {
      await f.service.decide(id, 'review', { action: 'approve', by: 'ed' });
      expect(await f.service.settled(id)).toBe('succeeded');
    }
  });

  it('refuses a loop already past a lowered bound, and notes one that still fits', async () => {
    const f = await fixture();
    const runId = await waitingRun(f);
    await f.service.decide(runId, 'review', { action: 'reject', by: 'ed', reason: 'shorter' });
    expect(await f.service.settled(runId)).toBe('waiting');
    await f.service.decide(runId, 'rereview', { action: 'reject', by: 'ed', reason: 'still long' });
    expect(await f.service.settled(runId)).toBe('waiting');
    await f.service.decide(runId, 'rereview', { action: 'reject', by: 'ed', reason: 'still too long' });
    expect(await f.service.settled(runId)).toBe('waiting');
    const lowered = (bound: number): Json => ({ ...v3(), edges: (v3().edges as Json[]).map((e) => (e.id === 'rereview_rejected' ? { ...e, maxTraversals: bound } : e)) });
    const fits = await f.service.migrate([runId], target(lowered(2)), { dryRun: true });
    expect(fits.runs[0]?.plan.verdict).toBe('safe');
    expect(fits.runs[0]?.plan.notes.join('\n')).toMatch(/rereview_rejected": maxTraversals 3 → 2; taken 2 times so far, 0 more allowed/);
    // Two traversals, past a bound of 1.
    const r = await f.service.migrate([runId], target(lowered(1)), {});
    expect(r.runs[0]?.plan.refusals.map((x) => x.code)).toEqual(['loop_past_bound']);
  });

  it('moves the first of two runs and leaves the second untouched when its migration fails inside its transaction', async () => {
    const f = await fixture();
    const a = await waitingRun(f);
    const b = await waitingRun(f);
    const store = f.session.store;
    const append = store.append.bind(store);
    let migrations = 0;
    store.append = ((e: Parameters<typeof store.append>[0]) => {
      if (e.type === 'run_migrated' && ++migrations === 2) throw new Error('disk fault while appending');
      return append(e);
    }) as typeof store.append;
    const r = await f.service.migrate([a, b], target(v3()), {});
    store.append = append;
    expect(r.runs.map((x) => [x.plan.runId, x.applied])).toEqual([[a, true], [b, false]]);
    expect(r.runs[1]?.error).toMatch(/disk fault/);
    expect(store.readEvents(b).some((e) => e.type === 'run_migrated')).toBe(false);
    expect(store.getRun(b)?.version).toBe(2);
    expect(store.getRun(a)?.version).toBe(3);
    // The second run goes on, on v2.
    await f.service.decide(b, 'review', { action: 'approve', by: 'ed' });
    expect(await f.service.settled(b)).toBe('succeeded');
    expect(foldRun(store, b).steps.has('notify')).toBe(false);
  });
  it('refuses a changed join that, judged against the branches this run has, can no longer go on', async () => {
    const f = await fixture();
    const joins = (version: number, ignoreCancelled: boolean): Json => ({
      format: 'weft/v1', id: 'joins', version, name: 'Joins',
      steps: [
        { id: 'start', kind: 'transform', config: { expression: '{ "go": true }' } },
        { id: 'b', kind: 'transform', config: { expression: '1' } },
        { id: 'c', kind: 'transform', config: { expression: '2' } },
        { id: 'h', kind: 'human', config: { task: 'approve', title: 'ok?' }, deadlineMs: 86_400_000 },
        { id: 'j', kind: 'join', config: { mode: 'atLeast', count: 2, ...(ignoreCancelled ? { onCancelledBranch: 'ignore' } : {}) } },
        { id: 'done', kind: 'end' },
      ],
      edges: [
        { id: 'sb', from: 'start', to: 'b', when: 'output.go' },
        { id: 'sc', from: 'start', to: 'c', when: '$not(output.go)' },
        { id: 'sh', from: 'start', to: 'h' },
        { id: 'bj', from: 'b', to: 'j' },
        { id: 'cj', from: 'c', to: 'j' },
        { id: 'hj', from: 'h', to: 'j' },
        { id: 'jd', from: 'j', to: 'done' },
      ],
    });
    writeFileSync(join(f.dir, 'joins.weft.json'), JSON.stringify(joins(1, true)));
    const { runId } = await f.service.startRun({ workflow: 'joins', input: {} });
    expect(await f.service.settled(runId)).toBe('waiting');
    expect(foldRun(f.session.store, runId).steps.get('c')?.state).toBe('skipped');
    const refused = await f.service.migrate([runId], target(joins(2, false)), {});
    expect(refused.runs[0]?.plan.refusals.map((r) => [r.code, r.step])).toEqual([['join_cannot_be_met', 'j']]);
    expect(refused.runs[0]?.plan.refusals[0]?.message).toMatch(/"c" did not arrive/);
    // Still fitting: a changed count the run's branches can still meet is noted, and the run moves.
    const fits = { ...joins(2, true), steps: (joins(2, true).steps as Json[]).map((s) => (s.id === 'j' ? { ...s, config: { mode: 'atLeast', count: 1, onCancelledBranch: 'ignore' } } : s)) };
    const moved = await f.service.migrate([runId], target(fits), {});
    expect(moved.runs[0]?.plan.notes.join('\n')).toMatch(/join "j" changed/);
    expect(moved.runs[0]?.applied).toBe(true);
  });
});
