// A run's permitted actions are the engine's own answer. The examples' scenarios run on the real
// engine; then, at every prefix of every run's log, a fresh engine is given a store holding just
// that prefix and is asked to do every action to every step (and to the run): it refuses exactly
// the actions shared/run/action-rules.ts refuses, with the same message, and RunDetail lists
// exactly the others as permitted.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUN_LEVEL_ACTIONS, STEP_ACTIONS, type RunLevelActionName, type StepActionName } from '../../shared/api/permitted-action.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runActionRefusal, stepActionRefusal } from '../../shared/run/action-rules.ts';
import { foldEvents } from '../../shared/run/fold-events.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { forkPlan } from '../../engine/runtime/fork-plan.ts';
import { projectFromLog } from '../../engine/runtime/projections.ts';
import { seededRandom, VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import type { Db } from '../../engine/store/db.ts';
import { Store, type NewEvent } from '../../engine/store/store.ts';
import { StoreError } from '../../engine/store/store-error.ts';
import { parseWorkflow } from './harness.ts';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'weft-permitted-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const scenariosOf = (name: string) => {
  const folder = join(examples, `${name}.scenarios`);
  const files = [join(examples, `${name}.scenarios.json`), ...(existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => join(folder, f)) : [])];
  return files.flatMap((f) => ScenarioFile.parse(JSON.parse(readFileSync(f, 'utf8'))).scenarios);
};

const names = readdirSync(examples).filter((f) => f.endsWith('.weft.json')).map((f) => f.slice(0, -'.weft.json'.length)).sort();
// Per example its first two scenarios, and every one where an operator acts or the input is
// revised: between them the runs wait for people, leave unknowns, hold steps for a decision after
// a revision, fail joins, compensate and fork.
const cases = names.flatMap((name) => {
  const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, `${name}.weft.json`), 'utf8')));
  return scenariosOf(name)
    .map((scenario, k) => ({ label: `${name}: ${scenario.name}`, file: `${name}-${k}.db`, workflow, scenario, k }))
    .filter(({ scenario, k }) => k < 2 || (scenario.operator ?? []).length > 0 || (scenario.revise ?? []).length > 0);
});

type Verdict = { refused: false } | { refused: true; code: string; message: string };

const verdictOf = (e: unknown): Verdict => {
  if (e instanceof StoreError && (e.code === 'refused' || e.code === 'bad-input')) return { refused: true, code: e.code, message: e.message };
  throw e;
};

/** A fresh store that holds exactly `events` of one run (and its definition), as a stopped engine left it, and its connection. */
function storeWith(workflow: Workflow, events: readonly RunEvent[]): { store: Store; db: Db } {
  const db = openDatabase(':memory:');
  const store = new Store(db);
  store.saveDefinition(workflow, events[0]?.at ?? 0);
  for (const e of events) {
    const { seq: _seq, ...rest } = e;
    store.append(rest as NewEvent);
  }
  store.flush();
  projectFromLog(store, events[0]?.runId ?? '');
  store.flush();
  return { store, db };
}

/**
 * Asks a fresh engine over the prefix to do every action. Each one's refusal is decided before the
 * call returns (the rules run synchronously, the accepted work runs in later ticks), so all are
 * asked of the same state; the engine is closed before any tick.
 */
async function engineVerdicts(workflow: Workflow, events: readonly RunEvent[], steps: readonly string[]): Promise<Map<string, Verdict>> {
  const { store, db } = storeWith(workflow, events);
  const runId = events[0]?.runId ?? '';
  const engine = new Engine({ store, clock: new VirtualClock(events[events.length - 1]?.at), random: seededRandom(1), executors: {} });
  const verdicts = new Map<string, Verdict>();
  const asked: [string, Promise<unknown>][] = [];
  const ask = (key: string, act: () => Promise<unknown>): void => {
    verdicts.set(key, { refused: false });
    asked.push([key, act()]);
  };
  const by = 'tester';
  ask('run:pause', () => engine.pauseRun(runId, by, 'test'));
  ask('run:resume', () => engine.unpauseRun(runId, by, 'test'));
  ask('run:cancel', () => engine.cancelRun(runId, by, 'test'));
  for (const step of steps) {
    const acts: Record<StepActionName, () => Promise<unknown>> = {
      retry: () => engine.retryStep(runId, step, by, 'test'),
      skip: () => engine.skipStep(runId, step, null, by, 'test'),
      resolve: () => engine.resolveStep(runId, step, 'failed', by, 'test'),
      keep: () => engine.keepStep(runId, step, by, 'test'),
      fork: async () => forkPlan(engine.load(runId).model, step),
      approve: () => engine.decideTask(runId, step, { decision: 'approved', by, data: {} }),
      reject: () => engine.decideTask(runId, step, { decision: 'rejected', by, reason: 'test' }),
      reassign: () => engine.reassignTask(runId, step, 'ben', by),
    };
    for (const a of STEP_ACTIONS) ask(`${step}:${a}`, acts[a]);
  }
  // A revision writes at once: asked last, after every other answer is in.
  try {
    engine.revise(runId, foldEvents(workflow, events).input);
    verdicts.set('run:revise', { refused: false });
  } catch (e) {
    verdicts.set('run:revise', verdictOf(e));
  }
  engine.close();
  for (const [key, p] of asked) p.catch((e: unknown) => verdicts.set(key, verdictOf(e)));
  await new Promise((resolve) => setImmediate(resolve));
  db.close();
  return verdicts;
}

let compared = 0;
const permittedSeen = new Set<string>();

describe('permitted actions are the engine\'s refusals, inverted', () => {
  it.each(cases)('$label: at every event, the engine refuses exactly what the rules refuse', async ({ file, workflow, scenario }) => {
    const dbPath = join(tmp, file);
    const result = await runScenario(workflow, scenario, { dbPath });
    expect(result.passed).toBe(true);
    const db = openDatabase(dbPath);
    const source = new Store(db);
    try {
      for (const runId of source.loggedRunIds()) {
        const events = source.readEvents(runId);
        const steps = [...workflow.steps.map((s) => s.id), 'no_such_step'];
        for (let n = 1; n <= events.length; n++) {
          const prefix = events.slice(0, n);
          const model = foldEvents(workflow, prefix);
          const verdicts = await engineVerdicts(workflow, prefix, steps);
          const expected = new Map<string, Verdict>();
          for (const a of RUN_LEVEL_ACTIONS) expected.set(`run:${a}`, toVerdict(runActionRefusal(model, a as RunLevelActionName)));
          for (const step of steps) for (const a of STEP_ACTIONS) expected.set(`${step}:${a}`, toVerdict(stepActionRefusal(model, step, a)));
          // What the engine refused with the rules' own words; what it took, the rules permit.
          for (const [key, want] of expected) {
            const got = verdicts.get(key);
            if (want.refused) expect(got, `${key} at event ${n}`).toEqual(want);
            else expect(got?.refused === true && got.code === 'refused' ? got : { refused: false }, `${key} at event ${n}`).toEqual({ refused: false });
            compared += 1;
          }
          // RunDetail lists exactly the actions the rules permit.
          const detail = runDetail(model);
          for (const s of detail.steps) {
            const listed = s.permittedActions.map((p) => p.action);
            expect(listed, `${s.id} at event ${n}`).toEqual(STEP_ACTIONS.filter((a) => !(expected.get(`${s.id}:${a}`)?.refused ?? true)));
            for (const a of listed) permittedSeen.add(a);
          }
          expect(detail.run.permittedActions.map((p) => p.action)).toEqual(RUN_LEVEL_ACTIONS.filter((a) => !(expected.get(`run:${a}`)?.refused ?? true)));
        }
      }
    } finally {
      db.close();
    }
  });

  it('compared every action, and saw each one permitted somewhere', () => {
    expect(compared).toBeGreaterThan(1000);
    expect([...permittedSeen].sort()).toEqual([...STEP_ACTIONS].sort());
  });
});

function toVerdict(r: { code: string; message: string } | undefined): Verdict {
  return r === undefined ? { refused: false } : { refused: true, code: r.code, message: r.message };
}
