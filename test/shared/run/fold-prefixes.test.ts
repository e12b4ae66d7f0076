// The fold of shared/run/ against the engine: every scenario of the seven examples runs on the
// real engine into a SQLite file; then every prefix of every run's stored log is folded with
// shared/run/ alone (as the app does to show a run at event N) and its restart record and
// RunDetail parse; and the fold of the whole log equals the model the engine itself ran with,
// and so does its restart record. The runs between them retry, leave an unknown outcome, get
// rejected by a person, compensate and fork: the test checks that they do.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RestartRecord } from '../../../shared/api/restart-record.ts';
import { RunDetail } from '../../../shared/api/run-detail.ts';
import { Timeline } from '../../../shared/api/timeline.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import { ScenarioFile } from '../../../shared/scenario/scenario-schema.ts';
import { foldEvents } from '../../../shared/run/fold-events.ts';
import { restartRecord } from '../../../shared/run/restart-record.ts';
import { runDetail } from '../../../shared/run/run-detail.ts';
import type { RunModel } from '../../../shared/run/run-model.ts';
import { timeline } from '../../../shared/run/timeline.ts';
import { runMetrics } from '../../../engine/metrics/run-metrics.ts';
import { Engine, type EngineOptions } from '../../../engine/runtime/engine.ts';
import { runScenario } from '../../../engine/scenario/run-scenario.ts';
import { openDatabase } from '../../../engine/store/open-database.ts';
import { Store } from '../../../engine/store/store.ts';
import { parseWorkflow } from '../../engine/harness.ts';

const examples = join(import.meta.dirname, '..', '..', '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'weft-fold-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The engine, remembering the model object it runs each run with (the latest one it made). */
const modelKeepingEngine = (o: EngineOptions, models: Map<string, RunModel>): Engine =>
  new Engine(o, { onLive: (model) => void models.set(model.runId, model) });

const names = readdirSync(examples).filter((f) => f.endsWith('.weft.json')).map((f) => f.slice(0, -'.weft.json'.length)).sort();
const scenariosOf = (name: string) => {
  const folder = join(examples, `${name}.scenarios`);
  const files = [join(examples, `${name}.scenarios.json`), ...(existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => join(folder, f)) : [])];
  return files.flatMap((f) => ScenarioFile.parse(JSON.parse(readFileSync(f, 'utf8'))).scenarios);
};
const cases = names.flatMap((name) => {
  const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, `${name}.weft.json`), 'utf8')));
  return scenariosOf(name).map((scenario, k) => ({ label: `${name}: ${scenario.name}`, file: `${name}-${k}.db`, workflow, scenario }));
});

/** What the runs did, across every case: the test needs each of these at least once. */
const seen = { retry: 0, unknown: 0, rejection: 0, compensation: 0, fork: 0, runs: 0, prefixes: 0 };

describe('the fold of shared/run over real logs', () => {
  it('covers the seven examples', () => {
    expect(names.length).toBe(7);
    expect(cases.length).toBeGreaterThanOrEqual(48);
  });

  it.each(cases)('$label: every prefix folds, and the whole log folds to the engine\'s own model', async ({ file, workflow, scenario }) => {
    const models = new Map<string, RunModel>();
    const dbPath = join(tmp, file);
    const result = await runScenario(workflow, scenario, { dbPath, makeEngine: (o) => modelKeepingEngine(o, models) });
    expect(result.error).toBeUndefined();
    expect(result.passed, JSON.stringify(result.assertions.filter((a) => !a.ok))).toBe(true);
    const db = openDatabase(dbPath);
    const store = new Store(db);
    try {
      const runIds = store.loggedRunIds();
      expect(runIds.length).toBeGreaterThan(0);
      for (const runId of runIds) {
        const events = store.readEvents(runId);
        const created = events[0];
        if (created?.type !== 'run_created') throw new Error(`run ${runId} does not start with run_created`);
        const def = store.loadDefinition(created.data.workflowId, created.data.version);
        if (def === undefined) throw new Error(`run ${runId} has no definition snapshot`);
        for (let n = 1; n <= events.length; n++) {
          const m = foldEvents(def.workflow, events.slice(0, n));
          expect(m.lastSeq).toBe(n);
          RestartRecord.parse(restartRecord(m));
          const detail = RunDetail.parse(runDetail(m));
          expect(detail.run.lastSeq).toBe(n);
          Timeline.parse(timeline(events.slice(0, n)));
        }
        const full = foldEvents(def.workflow, events);
        const own = models.get(runId);
        expect(own, `the engine ran ${runId}`).toBeDefined();
        // The snapshot is stored without the file's presentation ($schema, layout): its steps and edges are the same.
        const { workflow: ownWorkflow, ...ownState } = own as RunModel;
        const { workflow: foldedWorkflow, ...foldedState } = full;
        expect(foldedState).toEqual(ownState);
        expect({ steps: foldedWorkflow.steps, edges: foldedWorkflow.edges }).toEqual({ steps: ownWorkflow.steps, edges: ownWorkflow.edges });
        expect(restartRecord(full)).toEqual(restartRecord(own as RunModel));
        expect(runDetail(full)).toEqual(runDetail(own as RunModel));
        const totals = timeline(events).totals;
        const metrics = runMetrics(events);
        expect(totals).toEqual({ activeMs: metrics.activeMs, waitingMs: metrics.waitingMs, queueMs: metrics.queueMs, attentionMs: metrics.attentionMs });
        count(events);
      }
    } finally {
      db.close();
    }
  });

  it('folded runs that retry, leave an unknown, are rejected, compensate and fork', () => {
    expect(seen.runs).toBeGreaterThanOrEqual(cases.length);
    for (const what of ['retry', 'unknown', 'rejection', 'compensation', 'fork'] as const) expect(seen[what], what).toBeGreaterThan(0);
  });
});

function count(events: readonly RunEvent[]): void {
  seen.runs += 1;
  seen.prefixes += events.length;
  for (const e of events) {
    if (e.type === 'retry_scheduled') seen.retry += 1;
    else if (e.type === 'attempt_unknown') seen.unknown += 1;
    else if (e.type === 'task_decided' && e.data.decision === 'rejected') seen.rejection += 1;
    else if (e.type === 'step_compensated') seen.compensation += 1;
    else if (e.type === 'run_created' && e.data.forkOf !== undefined) seen.fork += 1;
  }
}
