// A real engine on a real SQLite file in a temp folder (or a PostgreSQL schema of its own under
// WEFT_TEST_STORE=postgres: test/fixtures/store/test-store.ts), for engine tests: workflows are written
// as plain data, validated like the CLI does, and run with the real executors and, unless a test
// gives another (a VirtualClock, clock-after.ts), the real clock.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { validateWorkflow } from '../../shared/validator/validate-workflow.ts';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { systemClock, systemRandom, type Clock } from '../../engine/time/clock.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Db } from '../../engine/store/db.ts';
import { openTestDb } from '../fixtures/store/test-store.ts';
import { Store, type StoreOptions } from '../../engine/store/store.ts';

export { until } from './until.ts';

export interface Harness {
  dir: string;
  dbPath: string;
  /** The store as a command names it: dbPath on SQLite, the URL with its schema on PostgreSQL (a second connection opens it by this). */
  storeText: string;
  db: Db;
  store: Store;
  engine: Engine;
  /** Parses and validates a workflow object (errors fail the test), saves it, starts a run. */
  start(workflow: unknown, input?: unknown): { runId: string; workflow: Workflow };
  events(runId: string): RunEvent[];
  /** The run as its stored log says (the engine drops finished runs from memory). */
  model(runId: string): RunModel;
  /** A new engine on the same store, as after a restart (the old one is abandoned, not closed). */
  restart(): Engine;
  close(): void;
}

export function parseWorkflow(workflow: unknown): Workflow {
  const parsed = parseDefinitionText(JSON.stringify(workflow));
  if (!parsed.ok) throw new Error(`test workflow does not parse: ${JSON.stringify(parsed.diagnostics, null, 1)}`);
  const errors = validateWorkflow(parsed.workflow).filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`test workflow is invalid: ${errors.map((d) => `${d.code}: ${d.message}`).join('\n')}`);
  return parsed.workflow;
}

/** `options`: how its Store is made (e.g. a small snapshot policy). */
export function harness(dir = mkdtempSync(join(tmpdir(), 'weft-engine-')), clock: Clock = systemClock, options: StoreOptions = {}): Harness {
  const dbPath = join(dir, 'weft.db');
  const opened = openTestDb(dir);
  let db = opened.db;
  let store = new Store(db, options);
  const make = (): Engine => new Engine({ store, clock, random: systemRandom, executors: defaultExecutors() });
  const h: Harness = {
    dir,
    dbPath,
    storeText: opened.text,
    db,
    store,
    engine: make(),
    start(raw, input = {}) {
      const workflow = parseWorkflow(raw);
      const hash = h.store.saveDefinition(workflow, Date.now());
      const runId = h.engine.startRun({ workflow, definitionHash: hash, input, workspaceDir: dir });
      return { runId, workflow };
    },
    events: (runId) => h.store.readEvents(runId),
    model: (runId) => foldRun(h.store, runId),
    restart() {
      h.engine.close();
      db = opened.reopen();
      store = new Store(db, options);
      h.db = db;
      h.store = store;
      h.engine = make();
      return h.engine;
    },
    close() {
      h.engine.close();
      opened.close();
    },
  };
  return h;
}

export const types = (events: readonly RunEvent[], step?: string): string[] =>
  events.filter((e) => step === undefined || e.step === step).map((e) => e.type);

/** The `data` of every event of `type` for `step`, typed for that event. */
export const data = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T, step: string) =>
  events.filter((e) => e.type === type && e.step === step).map((e) => e.data as RunEvent<T>['data']);

/** A workflow as plain data (named after its id), for `start` or `parseWorkflow`. */
export const wf = (id: string, steps: unknown[], edges: unknown[], extra: Record<string, unknown> = {}) => ({ format: 'weft/v1', id, version: 1, name: id, ...extra, steps, edges });

/** An end step, `done` unless named; `status` (e.g. 'failed') goes in its config. */
export const end = (id = 'done', status?: string) => ({ id, kind: 'end', ...(status ? { config: { status } } : {}) });
