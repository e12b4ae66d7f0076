// Snapshots of big runs (engine/store/run-snapshots.ts, migration 12): a reader that loads a
// run's snapshot and folds the events after it gets the model a fold of the whole log gives, and
// the summary stored with it is the summary that model gives; an operator's retry after the
// snapshot is folded on, never missed; a snapshot that is damaged, of another format or names
// another event is passed over for the whole log. On a real engine writing a real SQLite file,
// read by a second, read-only connection as the server's read worker reads it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldedRuns } from '../../engine/service/folded-runs.ts';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { runDetailOf, type RunModels } from '../../engine/service/read-model.ts';
import { foldForReader } from '../../engine/service/snapshot-fold.ts';
import { runValueOf } from '../../engine/service/run-value-read.ts';
import { ServiceError } from '../../engine/service/service-error.ts';
import { INLINE_CHILD_BYTES } from '../../shared/api/run-value.ts';
import { parseValuePath, type PathSegment } from '../../shared/api/value-path.ts';
import { shapeValue } from '../../shared/run/elide-values.ts';
import { valueAt } from '../../shared/run/value-at.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store, type StoreOptions } from '../../engine/store/store.ts';
import { redraftLoop } from './redraft-loop.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import { DETAIL_ATTEMPTS } from '../../shared/api/step-attempts.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { end, harness, parseWorkflow, wf, type Harness } from './harness.ts';

/** Small numbers, so a test run of a few hundred events is a big run. */
const POLICY = { snapshots: { minEvents: 40, every: 100_000 } };

/** A loop of two transforms (9 events a pass), then a check that fails unless its input has a 2, then a person's approval. */
const loopThenCheck = wf(
  'loop-check',
  [
    { id: 'a', kind: 'transform', config: { expression: '{"pass": $activation}' } },
    { id: 'b', kind: 'transform', config: { expression: '1' } },
    { id: 'check', kind: 'command', input: '{"n": 1}', config: { argv: ['sh', '-c', 'read l; case "$l" in *2*) echo "$l";; *) exit 1;; esac'] } },
    { id: 'approve', kind: 'human', config: { task: 'approve', title: 'Approve' }, deadlineMs: 86_400_000 },
    end(),
  ],
  [
    { id: 'a-b', from: 'a', to: 'b' },
    { id: 'again', from: 'b', to: 'a', maxTraversals: 24 },
    { id: 'to-check', from: 'b', to: 'check', on: 'exhausted' },
    { id: 'to-approve', from: 'check', to: 'approve' },
    { id: 'approved', from: 'approve', to: 'done' },
  ],
);

const redraft = redraftLoop;

let h: Harness | undefined;
let reader: { store: Store; close(): void } | undefined;

afterEach(() => {
  reader?.close();
  reader = undefined;
  h?.close();
  if (h !== undefined) rmSync(h.dir, { recursive: true, force: true });
  h = undefined;
});

/** The run folded from its whole log, each event checked: the truth a snapshot must equal. */
const wholeFold = (store: Store, runId: string) => foldRun(store, runId, store.readEvents(runId));

/** The server's detail of the run through a fresh FoldedRuns (a cold read), and what it used. */
function servedDetail(store: Store, runId: string) {
  const folded = new FoldedRuns(store);
  const models: RunModels = { resolveRunId: (id) => store.resolveRunId(id), fold: (id) => folded.model(id), summary: (id, n) => folded.summary(id, n) };
  const detail = runDetailOf(models, runId, { elideOver: DETAIL_VALUE_LIMIT, latestAttempts: DETAIL_ATTEMPTS });
  return { detail, snapshots: { ...folded.snapshots }, counts: { ...folded.counts } };
}

/** The detail the server sends, built from a fold of the whole log. */
function truthDetail(store: Store, runId: string) {
  const model = wholeFold(store, runId);
  const models: RunModels = { resolveRunId: (id) => id, fold: () => model };
  return runDetailOf(models, runId, { elideOver: DETAIL_VALUE_LIMIT, latestAttempts: DETAIL_ATTEMPTS });
}

/** A run failed at "check" after a loop of 25 passes (a few hundred events), with its snapshot written as it finished. */
async function failedBigRun(): Promise<{ h: Harness; runId: string }> {
  h = harness(undefined, undefined, POLICY);
  const { runId } = h.start(loopThenCheck);
  expect(await h.engine.settled(runId)).toBe('failed');
  h.engine.flush();
  return { h, runId };
}

describe('a big run\'s snapshot', () => {
  it('is written as the run finishes; a cold read folds nothing and equals a fold of the whole log', async () => {
    const { h, runId } = await failedBigRun();
    reader = await openReadOnlyStore(h.dbPath);
    const store = reader.store;
    const last = store.readEvents(runId).length;
    expect(last).toBeGreaterThan(200);

    const { model, fromSnapshot } = foldForReader(store, runId);
    expect(fromSnapshot).toBe(true);
    expect(model.lastSeq).toBe(last);
    expect(model).toEqual(wholeFold(store, runId));
    expect(runDetail(model)).toEqual(runDetail(wholeFold(store, runId)));

    const served = servedDetail(store, runId);
    expect(served.snapshots).toEqual({ folds: 0, summaries: 1 });
    expect(served.counts).toEqual({ fresh: 0, forward: 0 });
    expect(served.detail).toEqual(truthDetail(store, runId));
    expect(JSON.stringify(served.detail)).toBe(JSON.stringify(truthDetail(store, runId)));
    expect(served.detail.steps.find((s) => s.id === 'a')?.attemptCount).toBe(25);
  });

  it('is folded on by an operator\'s retry after it: the reader reads the events after it and equals the whole fold', async () => {
    const { h, runId } = await failedBigRun();
    const covered = h.store.readEvents(runId).length;
    await h.engine.retryStep(runId, 'check', 'ops', 'fixed the input', { value: { n: 2 } });
    expect(await h.engine.settled(runId)).toBe('waiting');
    h.engine.flush();
    reader = await openReadOnlyStore(h.dbPath);
    const store = reader.store;
    expect(store.readEvents(runId).length).toBeGreaterThan(covered);

    // The run is waiting again (not finished, nowhere near `every` events more): its snapshot is
    // still the one of the failed run, behind the log.
    expect(store.currentRunSummary(runId, DETAIL_ATTEMPTS)).toBeUndefined();
    const { model, fromSnapshot } = foldForReader(store, runId);
    expect(fromSnapshot).toBe(true);
    expect(model).toEqual(wholeFold(store, runId));
    expect(model.state).toBe('waiting');
    expect(model.steps.get('check')?.state).toBe('succeeded');

    const served = servedDetail(store, runId);
    expect(served.snapshots).toEqual({ folds: 1, summaries: 0 });
    expect(served.detail).toEqual(truthDetail(store, runId));
    expect(served.detail.run.permittedActions).toEqual(truthDetail(store, runId).run.permittedActions);

    // Approved, the run finishes again, and its snapshot moves to its new last event.
    await h.engine.decideTask(runId, 'approve', { decision: 'approved', by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    const again = servedDetail(store, runId);
    expect(again.snapshots).toEqual({ folds: 0, summaries: 1 });
    expect(again.detail).toEqual(truthDetail(store, runId));
    expect(again.detail.run.state).toBe('succeeded');
  });

  it('is written every `every` events of a live run; a reader folds on from the latest one', async () => {
    h = harness(undefined, undefined, { snapshots: { minEvents: 20, every: 30 } });
    const { runId } = h.start(redraft);
    expect(await h.engine.settled(runId)).toBe('waiting');
    const fromSnapshot: boolean[] = [];
    reader = await openReadOnlyStore(h.dbPath);
    for (let pass = 1; pass <= 20; pass++) {
      await h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana', reason: `pass ${pass}` });
      expect(await h.engine.settled(runId)).toBe('waiting');
      h.engine.flush();
      const read = foldForReader(reader.store, runId);
      fromSnapshot.push(read.fromSnapshot);
      expect(read.model).toEqual(wholeFold(reader.store, runId));
      expect(servedDetail(reader.store, runId).detail).toEqual(truthDetail(reader.store, runId));
    }
    // Under 20 events there was none; from then on each read started from one.
    expect(fromSnapshot.slice(-15)).toEqual(Array.from({ length: 15 }, () => true));
    expect(fromSnapshot[0]).toBe(false);
  });

  it('is passed over when damaged, of another format, or naming another event: the reader folds the whole log', async () => {
    const { h, runId } = await failedBigRun();
    h.close();
    // What each damage makes the reader pass over: the model and the summary are checked each by its own hash.
    const damages = [
      ['the model\'s bytes', "UPDATE run_snapshots SET model = x'ff0d6f'", { model: false, summary: true }],
      ['the model\'s bytes, hash and all', "UPDATE run_snapshots SET model = x'ff0d6f', model_hash = 'e3562c8951d0b47989f7cfd65bf693d725a4717d'", { model: false, summary: true }],
      ['the summary', "UPDATE run_snapshots SET summary = '{\"run\": 1}'", { model: true, summary: false }],
      ['the summary, hash and all', "UPDATE run_snapshots SET summary = '{\"run\": 1}', summary_hash = '73bb8d0a5444b6aa7351973c975d3e70a1ee6c69'", { model: true, summary: false }],
      ['the format', 'UPDATE run_snapshots SET format = format + 1', { model: false, summary: false }],
      ['the cursor of the event it covers', 'UPDATE run_snapshots SET cursor = cursor - 1', { model: false, summary: false }],
      ['the seq it covers', 'UPDATE run_snapshots SET seq = seq - 1', { model: false, summary: false }],
    ] as const;
    for (const [what, sql, used] of damages) {
      const raw = new Database(h.dbPath);
      const saved = raw.prepare('SELECT * FROM run_snapshots WHERE run_id = ?').get(runId) as Record<string, unknown>;
      raw.prepare(`${sql} WHERE run_id = ?`).run(runId);
      raw.close();

      const opened = await openReadOnlyStore(h.dbPath);
      try {
        const store = opened.store;
        expect(store.currentRunSummary(runId, DETAIL_ATTEMPTS) !== undefined, what).toBe(used.summary);
        const read = foldForReader(store, runId);
        expect(read.fromSnapshot, what).toBe(used.model);
        expect(read.model, what).toEqual(wholeFold(store, runId));
        const served = servedDetail(store, runId);
        expect(served.snapshots, what).toEqual({ summaries: used.summary ? 1 : 0, folds: !used.summary && used.model ? 1 : 0 });
        expect(served.detail, what).toEqual(truthDetail(store, runId));
      } finally {
        opened.close();
      }

      const restore = new Database(h.dbPath);
      restore.prepare('DELETE FROM run_snapshots WHERE run_id = ?').run(runId);
      const columns = Object.keys(saved);
      restore.prepare(`INSERT INTO run_snapshots (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(saved);
      restore.close();
    }
    // Restored, it is used again: each damage above was what made the reader pass it over.
    const opened = await openReadOnlyStore(h.dbPath);
    expect(servedDetail(opened.store, runId).snapshots).toEqual({ folds: 0, summaries: 1 });
    opened.close();
  });

  it('is neither written nor read on a store at the schema before migration 12 (as tests build them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-snapshots-'));
    try {
      const dbPath = join(dir, 'old.db');
      const { bigRun } = await runsOnOldStore(dir, dbPath, POLICY);
      const db = openDatabase(dbPath, { upTo: 11 });
      try {
        const store = new Store(db, POLICY);
        expect(store.currentRunSummary(bigRun, DETAIL_ATTEMPTS)).toBeUndefined();
        const read = foldForReader(store, bigRun);
        expect(read.fromSnapshot).toBe(false);
        expect(read.model).toEqual(wholeFold(store, bigRun));
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A big run (over 2,000 events) and a small one, run to the end on a store at schema 11, closed. */
async function runsOnOldStore(dir: string, dbPath: string, options: StoreOptions = {}): Promise<{ bigRun: string; smallRun: string }> {
  const old = openDatabase(dbPath, { upTo: 11 });
  const store = new Store(old, options);
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: defaultExecutors() });
  const big = parseWorkflow(wf('big', [{ id: 'a', kind: 'transform', config: { expression: '1' } }, { id: 'b', kind: 'transform', config: { expression: '1' } }, end()], [
    { id: 'a-b', from: 'a', to: 'b' },
    { id: 'again', from: 'b', to: 'a', maxTraversals: 230 },
    { id: 'done', from: 'b', to: 'done', on: 'exhausted' },
  ]));
  const small = parseWorkflow(wf('small', [{ id: 'a', kind: 'transform', config: { expression: '1' } }, end()], [{ id: 'a-end', from: 'a', to: 'done' }]));
  const start = (w: Workflow) => engine.startRun({ workflow: w, definitionHash: store.saveDefinition(w, Date.now()), input: {}, workspaceDir: dir });
  const bigRun = start(big);
  const smallRun = start(small);
  try {
    expect(await engine.settled(bigRun)).toBe('succeeded');
    expect(await engine.settled(smallRun)).toBe('succeeded');
    expect(store.readEvents(bigRun).length).toBeGreaterThanOrEqual(2_000);
  } finally {
    engine.close();
    old.close();
  }
  return { bigRun, smallRun };
}

describe('a value by path, read from the model', () => {
  it('is the value the full detail has there, for paths into a step\'s attempts, the run, the steps and what is not there', async () => {
    const { h, runId } = await failedBigRun();
    reader = await openReadOnlyStore(h.dbPath);
    const store = reader.store;
    const folded = new FoldedRuns(store);
    const models: RunModels = { resolveRunId: (id) => store.resolveRunId(id), fold: (id) => folded.model(id) };
    const full = runDetail(wholeFold(store, runId));
    const paths = ['run.input', 'run.state', 'steps.a', 'steps.a.attempts[0].output', 'steps.a.attempts[3].input', 'steps.a.attempts[24]', 'steps.b.attempts', 'steps.check.attempts[0].meta', 'steps', 'edges', 'tasks', 'steps.a.permittedActions', 'steps.a.attempts[25]', 'steps.nope', 'steps[0]', 'run.nope'];
    for (const path of paths) {
      const expected = valueAt(full, parseValuePath(path) as PathSegment[]);
      let got: unknown;
      try {
        got = runValueOf(store, models, runId, { path, depth: 64 });
      } catch (e) {
        got = e instanceof ServiceError ? { code: e.code, message: e.message } : e;
      }
      if (expected.found) {
        expect(got, path).toEqual(shapeValue(expected.value, path, { depth: 64, inlineBytes: INLINE_CHILD_BYTES, stringLimit: DETAIL_VALUE_LIMIT }));
      } else {
        expect(got, path).toEqual({ code: 'not-found', message: `no value at ${path} in run ${runId}: ${expected.message}` });
      }
    }
    expect(folded.snapshots.folds).toBe(1);
  });
});

describe('migration 12', () => {
  it('writes the snapshot of every run of at least 2,000 events in a store made before it, and none of a small run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-snapshots-'));
    try {
      const dbPath = join(dir, 'old.db');
      const { bigRun, smallRun } = await runsOnOldStore(dir, dbPath);
      openDatabase(dbPath).close(); // migrates to the latest schema
      const opened = await openReadOnlyStore(dbPath);
      try {
        const read = foldForReader(opened.store, bigRun);
        expect(read.fromSnapshot).toBe(true);
        expect(read.model).toEqual(wholeFold(opened.store, bigRun));
        expect(servedDetail(opened.store, bigRun).snapshots).toEqual({ folds: 0, summaries: 1 });
        expect(servedDetail(opened.store, bigRun).detail).toEqual(truthDetail(opened.store, bigRun));
        expect(foldForReader(opened.store, smallRun).fromSnapshot).toBe(false);
      } finally {
        opened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
