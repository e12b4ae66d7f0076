// Runs one scenario against the real engine in virtual time: an in-memory store, a virtual clock,
// a seeded random source, scripted outcomes for steps that do work (agent, http, command,
// script, map, subworkflow), people's decisions and events placed on the clock, and an optional
// crash (the engine is dropped and a new one recovers from the same store). Then checks `expect`.
import { isDeepStrictEqual } from 'node:util';
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { Scenario } from '../../shared/scenario/scenario-schema.ts';
import type { Executor } from '../executors/executor.ts';
import { Engine } from '../runtime/engine.ts';
import { foldRun } from '../runtime/fold-run.ts';
import { seededRandom, VirtualClock } from '../runtime/virtual-clock.ts';
import { openDatabase } from '../store/open-database.ts';
import { Store } from '../store/store.ts';
import { driveUntilQuiet, settleEngine } from './drive.ts';
import { ScriptedExecutor, type ScriptedOutcome } from './scripted-executor.ts';

const SCRIPTED_KINDS: StepKind[] = ['agent', 'http', 'command', 'script', 'map', 'subworkflow'];

export interface AssertionResult {
  what: string;
  ok: boolean;
  expected: unknown;
  actual: unknown;
}

export interface ScenarioResult {
  name: string;
  passed: boolean;
  assertions: AssertionResult[];
  /** The run's events, for coverage, determinism checks and debugging. */
  events: RunEvent[];
  virtualMs: number;
  crashed: boolean;
  error?: string;
}

export interface RunScenarioOptions {
  /** Keep the run in this SQLite file (created if missing) instead of an in-memory store. */
  dbPath?: string;
}

export async function runScenario(workflow: Workflow, scenario: Scenario, opts: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const clock = new VirtualClock();
  const db = openDatabase(opts.dbPath ?? ':memory:');
  const store = new Store(db);
  const script = new Map<string, ScriptedOutcome[]>(Object.entries(scenario.steps ?? {}) as [string, ScriptedOutcome[]][]);
  const scripted = new ScriptedExecutor(clock, script);
  const executors = Object.fromEntries(SCRIPTED_KINDS.map((k) => [k, scripted])) as Partial<Record<StepKind, Executor>>;
  const random = seededRandom(scenario.seed ?? 1);
  let engine = new Engine({ store, clock, random, executors });
  const start = clock.now();
  let crashed = false;
  const problems: string[] = [];
  try {
    const hash = store.saveDefinition(workflow, start);
    const runId = engine.startRun({ workflow, definitionHash: hash, input: scenario.input ?? {}, workspaceDir: '.' });
    const timed: AssertionResult[] = [];
    for (const d of scenario.decisions ?? []) {
      clock.setTimer(d.atMs, () => {
        const by = d.by ?? 'scenario';
        const what = `${d.decision} of "${d.step}" at ${d.atMs} ms`;
        const decided = d.decision === 'approve'
          ? engine.decideTask(runId, d.step, { decision: 'approved', by, ...(d.data === undefined ? {} : { data: d.data }), ...(d.choice === undefined ? {} : { choice: d.choice }) })
          : engine.decideTask(runId, d.step, { decision: 'rejected', by, reason: d.reason ?? 'rejected in the scenario' });
        decided.then(
          () => { if (d.refused === true) timed.push({ what: `${what} refused`, ok: false, expected: 'refused', actual: 'accepted' }); },
          (e: unknown) => {
            if (d.refused === true) timed.push({ what: `${what} refused`, ok: true, expected: 'refused', actual: `refused: ${(e as Error).message}` });
            else problems.push(`${what}: ${(e as Error).message}`);
          },
        );
      });
    }
    for (const [k, ev] of (scenario.events ?? []).entries()) {
      clock.setTimer(ev.atMs, () => {
        engine.sendEvent({ id: ev.id ?? `scenario-event-${k}`, name: ev.name, key: ev.key, data: ev.data ?? null, receivedAt: clock.now() }).then(
          (r) => { if (ev.expect !== undefined) timed.push({ what: `event "${ev.name}" (${ev.id ?? `#${k}`}) at ${ev.atMs} ms`, ok: r.status === ev.expect, expected: ev.expect, actual: r.status }); },
          (e: unknown) => problems.push(`event "${ev.name}" at ${ev.atMs} ms: ${(e as Error).message}`),
        );
      });
    }
    if (scenario.crash !== undefined) {
      const c = scenario.crash;
      const hits = (): number => store.readEvents(runId).filter((e) => e.type === c.afterEvent && (c.step === undefined || e.step === c.step)).length;
      // Run in small virtual steps until the named event has happened, then drop the engine.
      for (let guard = 0; hits() < (c.nth ?? 1) && guard < 100_000; guard++) {
        await settleEngine(engine);
        if (hits() >= (c.nth ?? 1) || !clock.advance()) break;
      }
      if (hits() >= (c.nth ?? 1)) {
        engine.close();
        engine = new Engine({ store, clock, random, executors });
        engine.recover();
        crashed = true;
      } else problems.push(`the scenario asked for a crash after ${c.afterEvent}${c.step ? ` of ${c.step}` : ''}, which never happened`);
    }
    await driveUntilQuiet(engine, clock);
    const events = store.readEvents(runId);
    const assertions = [...check(scenario, foldRun(store, runId), events, scripted), ...timed];
    for (const p of problems) assertions.push({ what: p, ok: false, expected: 'no error', actual: 'error' });
    return { name: scenario.name, passed: assertions.every((a) => a.ok), assertions, events, virtualMs: clock.now() - start, crashed };
  } catch (e) {
    return { name: scenario.name, passed: false, assertions: [], events: [], virtualMs: clock.now() - start, crashed, error: (e as Error).message };
  } finally {
    engine.close();
    db.close();
  }
}

function check(scenario: Scenario, run: ReturnType<typeof foldRun>, events: RunEvent[], scripted: ScriptedExecutor): AssertionResult[] {
  const out: AssertionResult[] = [];
  const x = scenario.expect;
  const add = (what: string, expected: unknown, actual: unknown): void => {
    out.push({ what, ok: isDeepStrictEqual(expected, actual), expected, actual });
  };
  if (x.state !== undefined) add('run state', x.state, run.state);
  const taken = new Set<string>();
  for (const e of events) {
    if (e.type !== 'step_settled') continue;
    for (const d of (e.data as RunEvent<'step_settled'>['data']).edges) if (d.taken) taken.add(d.id);
  }
  for (const [id, want] of Object.entries(x.steps ?? {})) {
    const s = run.steps.get(id);
    if (s === undefined) {
      out.push({ what: `step "${id}" exists`, ok: false, expected: 'a step of the workflow', actual: 'no such step' });
      continue;
    }
    if (want.state !== undefined) add(`state of "${id}"`, want.state, s.state);
    if (want.output !== undefined) add(`output of "${id}"`, want.output, s.output ?? null);
    if (want.attempts !== undefined) add(`attempts of "${id}"`, want.attempts, s.attempts.length);
  }
  for (const edge of x.path ?? []) add(`edge "${edge}" taken`, true, taken.has(edge));
  for (const edge of x.notTaken ?? []) add(`edge "${edge}" never taken`, false, taken.has(edge));
  for (const id of x.neverRan ?? []) {
    add(`step "${id}" never ran`, 0, (run.steps.get(id)?.attempts.length ?? 0) + (scripted.calls.get(id) ?? 0));
  }
  return out;
}
