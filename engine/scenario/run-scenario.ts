// Runs one scenario against the real engine in virtual time: an in-memory store, a virtual clock,
// a seeded random source, scripted outcomes for steps that do work (agent, http, command,
// script, map, subworkflow), people's decisions and events placed on the clock, and an optional
// crash (the engine is dropped and a new one recovers from the same store). Then checks `expect`.
import { artifactsDirOf, FileArtifactStore, MemoryArtifactStore } from '../artifacts/artifact-store.ts';
import type { StepKind } from '../../shared/definition/names.ts';
import { kindsWhere } from '../../shared/definition/step-kinds.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { Scenario, ScenarioExpect } from '../../shared/scenario/scenario-schema.ts';
import { MAIN_RUN } from '../../shared/scenario/scenario-runs-schema.ts';
import type { Executor } from '../executors/executor.ts';
import { Engine, type EngineOptions } from '../runtime/engine.ts';
import { foldRun } from '../runtime/fold-run.ts';
import { seededRandom, VirtualClock } from '../runtime/virtual-clock.ts';
import { openDatabase } from '../store/open-database.ts';
import { Store } from '../store/store.ts';
import { hashOf } from '../store/canonical-json.ts';
import type { PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import { driveUntilQuiet, settleEngine } from './drive.ts';
import { ScriptedExecutor } from './scripted-executor.ts';
import { CrashableStore } from './crashable-store.ts';
import { runMetrics, type RunMetrics } from '../metrics/run-metrics.ts';
import { LoggedStore, eventsInOrder, type AppendOrder } from './logged-store.ts';
import { ScenarioRuns, scriptOf } from './scenario-runs.ts';
import { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';
import { RunAction } from '../../shared/api/run-action.ts';
import { TaskAction } from '../../shared/api/task-action.ts';
import { ReviseCommand } from '../../shared/api/input-commands.ts';
import { checkActivations, checkAttempts } from './check-attempts.ts';
import { checkCost } from './check-cost.ts';
import type { PriceTable } from '../../shared/cost/price-table.ts';
import { checkAcrossRuns } from './check-across-runs.ts';
import { scriptKeyProblems, scriptProblems, unknownRunReferences } from './scenario-problems.ts';
import { assertion, type AssertionResult } from './assertion-result.ts';
import { startVerdict } from './expect-refused.ts';

/** The kinds whose work runs outside the engine (shared/definition/step-kinds.ts): the scenario scripts their outcomes. */
const SCRIPTED_KINDS: readonly StepKind[] = kindsWhere((k) => k.outside);

export interface ScenarioResult {
  name: string;
  passed: boolean;
  assertions: AssertionResult[];
  /** The events of every run of the scenario, in the order they were written: for determinism checks, debugging and `weft test --events`. */
  events: RunEvent[];
  /** The run's metrics (path taken, steps reached, end): what coverage and a failure report read. Null when it did not run. */
  metrics: RunMetrics | null;
  /** Every run of the scenario by name ("main" first, then `runs` and forks as they started), with its metrics. */
  runs: { name: string; runId: string; metrics: RunMetrics }[];
  virtualMs: number;
  crashed: boolean;
  error?: string;
}

export interface RunScenarioOptions {
  /** Keep the run in this SQLite file (created if missing) instead of an in-memory store. */
  dbPath?: string;
  /** Makes each engine the scenario runs (the first, and the one that recovers after a crash); tests look inside it. */
  makeEngine?: (options: EngineOptions) => Engine;
  /** The price table of the workflow's workspace (weft.prices.json beside it); a scenario's own `prices` wins. */
  prices?: PriceTable;
}

export async function runScenario(workflow: Workflow, scenario: Scenario, opts: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const wrong = [
    ...unknownReferences(workflow, scenario),
    ...Object.entries(scenario.expect.runs ?? {}).flatMap(([name, x]) => unknownReferences(workflow, { name: scenario.name, expect: x }).map((a) => ({ ...a, what: `expect.runs.${name}: ${a.what}` }))),
    ...unknownRunReferences(workflow, scenario),
  ];
  if (wrong.length > 0) return { name: scenario.name, passed: false, assertions: wrong, events: [], metrics: null, runs: [], virtualMs: 0, crashed: false };
  // A run the policy refuses never starts: the refusal is the scenario's result.
  const verdict = startVerdict(workflow, scenario.policy, scenario.expect);
  if (verdict.kind === 'end') return { name: scenario.name, passed: verdict.assertions.every((a) => a.ok), assertions: verdict.assertions, events: [], metrics: null, runs: [], virtualMs: 0, crashed: false };
  const clock = new VirtualClock();
  const db = openDatabase(opts.dbPath ?? ':memory:');
  const order: AppendOrder = [];
  // With a crash, the store dies right after the commit holding the named event, as with kill -9.
  const store: Store = scenario.crash === undefined ? new LoggedStore(db, order) : new CrashableStore(db, order, scenario.crash, () => engine.close());
  const runs = new ScenarioRuns(scriptOf(scenario.steps));
  const scripted = new ScriptedExecutor(clock, runs.scriptOf);
  const executors: Partial<Record<StepKind, Executor>> = {};
  for (const kind of SCRIPTED_KINDS) executors[kind] = scripted;
  const random = seededRandom(scenario.seed ?? 1);
  const makeEngine = opts.makeEngine ?? ((o: EngineOptions): Engine => new Engine(o));
  const table = scenario.prices ?? opts.prices;
  const prices = table === undefined ? {} : { prices: (): PriceTable => table };
  // One artifact store for every engine of the scenario: the one that recovers reads what the first wrote.
  // It keeps only sensitive values: a scenario holds its values (however large) and expects them
  // as values, so no output is kept by reference for its size (docs/scenarios.md, "Large values").
  const artifacts = opts.dbPath === undefined ? new MemoryArtifactStore() : new FileArtifactStore(artifactsDirOf(opts.dbPath));
  // A failure of the store stops the engine (engine-core.ts): the scenario ends with it as its error.
  let fatal: { error: unknown } | undefined;
  const stopped = (): boolean => fatal !== undefined;
  const kept = { artifacts, artifactThreshold: Infinity, onFatal: (error: unknown) => void (fatal ??= { error }) };
  let engine = makeEngine({ store, clock, random, executors, ...kept, ...prices });
  let live: Store = store;
  // The policy every run of the scenario starts under (its own, or its file's; test-command.ts).
  const policy: { policy?: PolicySnapshot } = scenario.policy === undefined ? {} : { policy: { hash: hashOf(scenario.policy), rules: scenario.policy } };
  // Operator actions, decisions, forks and revisions go through the service, as the CLI's do.
  let service = new EngineService(store, engine, undefined, {}, { clock, actor: 'operator', policyOf: () => policy.policy });
  const start = clock.now();
  let crashed = false;
  const problems: AssertionResult[] = [];
  try {
    const hash = store.saveDefinition(workflow, start);
    const runId = engine.startRun({ workflow, definitionHash: hash, input: scenario.input ?? {}, workspaceDir: '.', ...policy, ...(scenario.budget === undefined ? {} : { budget: scenario.budget }) });
    runs.add(MAIN_RUN, runId);
    const timed: AssertionResult[] = [];
    // More runs first, so an action at the same virtual time finds its run started.
    for (const r of scenario.runs ?? []) {
      clock.setTimer(r.atMs ?? 0, () => {
        let id: string;
        try {
          id = engine.startRun({ workflow, definitionHash: hash, input: r.input ?? {}, workspaceDir: '.', ...policy, ...(r.priority === undefined ? {} : { priority: r.priority }), ...(r.budget === undefined ? {} : { budget: r.budget }) });
        } catch (e) {
          // A start the engine refuses (a daily budget spent, whenOver "refuse") starts nothing.
          (r.refused === true ? timed : problems).push({ what: `start of run "${r.name}"${r.refused === true ? ' refused' : ''}`, ok: r.refused === true, expected: 'refused', actual: `refused: ${(e as Error).message}` });
          return;
        }
        if (r.refused === true) timed.push({ what: `start of run "${r.name}" refused`, ok: false, expected: 'refused', actual: 'started' });
        runs.add(r.name, id, r.steps === undefined ? undefined : scriptOf(r.steps, runs.script));
      });
    }
    // An action the scenario expects refused is an assertion; any other refusal is a problem.
    const outcomeOf = (what: string, refused: boolean, done: Promise<unknown>): void => {
      done.then(
        () => { if (refused) timed.push({ what: `${what} refused`, ok: false, expected: 'refused', actual: 'accepted' }); },
        (e: unknown) => {
          if (refused) timed.push({ what: `${what} refused`, ok: true, expected: 'refused', actual: `refused: ${(e as Error).message}` });
          else problems.push({ what, ok: false, expected: 'accepted', actual: `refused: ${(e as Error).message}` });
        },
      );
    };
    for (const d of scenario.decisions ?? []) {
      clock.setTimer(d.atMs, () => {
        const by = d.by ?? 'scenario';
        const what = `${d.decision} of "${d.step}" at ${d.atMs} ms`;
        const answer = d.decision === 'approve'
          ? { action: 'approve', by, ...(d.data === undefined ? {} : { data: d.data }), ...(d.choice === undefined ? {} : { choice: d.choice }) }
          : { action: 'reject', by, reason: d.reason ?? 'rejected in the scenario' };
        const decided = (id: string): Promise<unknown> => service.decide(id, d.step, parseCommand(TaskAction, answer, 'the decision'));
        outcomeOf(`${d.run === undefined ? '' : `run "${d.run}": `}${what}`, d.refused === true, attempt(() => decided(runs.idOf(d.run))));
      });
    }
    for (const [k, ev] of (scenario.events ?? []).entries()) {
      clock.setTimer(ev.atMs, () => {
        engine.sendEvent({ id: ev.id ?? `scenario-event-${k}`, name: ev.name, key: ev.key, data: ev.data ?? null, receivedAt: clock.now() }).then(
          (r) => { if (ev.expect !== undefined) timed.push({ what: `event "${ev.name}" (${ev.id ?? `#${k}`}) at ${ev.atMs} ms`, ok: r.status === ev.expect, expected: ev.expect, actual: r.status }); },
          (e: unknown) => problems.push({ what: `event "${ev.name}" at ${ev.atMs} ms`, ok: false, expected: 'accepted', actual: `refused: ${(e as Error).message}` }),
        );
      });
    }
    for (const op of scenario.operator ?? []) {
      clock.setTimer(op.atMs, () => {
        const what = `${op.run === undefined ? '' : `run "${op.run}": `}${op.action}${op.step === undefined ? '' : ` of "${op.step}"`}${op.from === undefined ? '' : ` from "${op.from}"`} at ${op.atMs} ms`;
        const act = (): Promise<unknown> => {
          const action = parseCommand(RunAction, operatorCommand(op), 'the operator action');
          if (action.action !== 'fork') return service.act(runs.idOf(op.run), action);
          // A fork is a new run: a later action or expect.runs finds it by its name.
          runs.add(op.name ?? 'fork', service.fork(runs.idOf(op.run), action).runId, op.steps === undefined ? undefined : scriptOf(op.steps, runs.script));
          return Promise.resolve();
        };
        outcomeOf(what, op.refused === true, attempt(act));
      });
    }
    for (const r of scenario.revise ?? []) {
      clock.setTimer(r.atMs, () => {
        const what = `${r.run === undefined ? '' : `run "${r.run}": `}revision at ${r.atMs} ms`;
        outcomeOf(what, r.refused === true, attempt(() => service.revise(runs.idOf(r.run), parseCommand(ReviseCommand, { action: 'revise', input: r.input }, 'the revision'))));
      });
    }
    if (store instanceof CrashableStore) {
      const c = store.crashPoint;
      // Run until the commit holding the named event, then start a new engine on the same
      // database (a new Store, as a new process would open) and let it recover.
      for (let guard = 0; !store.crashed && guard < 100_000; guard++) {
        await settleEngine(engine, () => store.crashed || stopped());
        if (store.crashed || stopped() || !clock.advance()) break;
      }
      if (store.crashed) {
        live = new LoggedStore(db, order);
        engine = makeEngine({ store: live, clock, random, executors, ...kept, ...prices });
        service = new EngineService(live, engine, undefined, {}, { clock, actor: 'operator', policyOf: () => policy.policy });
        engine.recover();
        crashed = true;
      } else problems.push({ what: `crash after ${c.afterEvent}${c.step ? ` of "${c.step}"` : ''}${(c.nth ?? 1) > 1 ? ` (time ${c.nth})` : ''}`, ok: false, expected: 'the event to happen', actual: 'it never happened' });
    }
    await driveUntilQuiet(engine, clock, undefined, stopped);
    if (fatal !== undefined) throw fatal.error;
    const assertions: AssertionResult[] = [];
    const results = runs.named().map(({ name, runId: id }) => {
      const events = live.readEvents(id);
      const metrics = runMetrics(events);
      const x = name === MAIN_RUN ? scenario.expect : scenario.expect.runs?.[name];
      if (x !== undefined) {
        const run = foldRun(live, id, events);
        const own = [...check(x, run, metrics, events, (step) => scripted.callsIn(id, step)), ...checkAttempts(x, run, start), ...checkCost(x, run), ...checkActivations(x, run, events)];
        // Another run's assertions say which run they are about.
        assertions.push(...(name === MAIN_RUN ? own : own.map((a) => ({ ...a, what: `run "${name}": ${a.what}` }))));
      }
      return { name, runId: id, metrics };
    });
    const events = eventsInOrder(live, order);
    assertions.push(...checkAcrossRuns(scenario.expect, workflow, events, runs), ...timed, ...scriptProblems(scripted.problems, runs), ...problems);
    return { name: scenario.name, passed: assertions.every((a) => a.ok), assertions, events, metrics: results[0]?.metrics ?? null, runs: results, virtualMs: clock.now() - start, crashed };
  } catch (e) {
    return { name: scenario.name, passed: false, assertions: [], events: [], metrics: null, runs: [], virtualMs: clock.now() - start, crashed, error: (e as Error).message };
  } finally {
    engine.close();
    db.close();
  }
}

function check(x: ScenarioExpect, run: ReturnType<typeof foldRun>, metrics: RunMetrics, events: RunEvent[], calls: (step: string) => number): AssertionResult[] {
  const out: AssertionResult[] = [];
  const add = (what: string, expected: unknown, actual: unknown): void => {
    out.push(assertion(what, expected, actual));
  };
  if (x.state !== undefined) add('run state', x.state, run.state);
  const taken = new Set(metrics.path);
  for (const [id, want] of Object.entries(x.steps ?? {})) {
    const s = run.steps.get(id);
    if (s === undefined) continue; // unknownReferences has failed the scenario before it ran
    if (want.state !== undefined) add(`state of "${id}"`, want.state, s.state);
    if (want.output !== undefined) add(`output of "${id}"`, want.output, s.output ?? null);
    if (want.outcome !== undefined) add(`outcome of "${id}"`, want.outcome, s.outcome);
    if (want.attempts !== undefined) add(`attempts of "${id}"`, want.attempts, s.attempts.length);
    if (want.passedOver !== undefined) add(`"${id}" passed over`, want.passedOver, s.passedOver !== null);
  }
  if (x.order !== undefined) {
    const started: string[] = [];
    for (const e of events) if (e.type === 'attempt_started' && e.step !== null && !started.includes(e.step)) started.push(e.step);
    add(`steps started in the order ${x.order.join(', ')}`, x.order, started.filter((id) => x.order?.includes(id)));
  }
  if (x.escalated !== undefined) {
    const got = run.escalations.map((e) => ({ step: e.stepId, rule: e.rule, to: e.to, atMs: e.at - run.createdAt }));
    add('escalations by the policy', x.escalated, got.map((g, k) => ({ step: g.step, rule: g.rule, ...(x.escalated?.[k]?.to === undefined ? {} : { to: g.to }), ...(x.escalated?.[k]?.atMs === undefined ? {} : { atMs: g.atMs }) })));
  }
  for (const edge of x.path ?? []) add(`edge "${edge}" taken`, true, taken.has(edge));
  for (const edge of x.notTaken ?? []) add(`edge "${edge}" never taken`, false, taken.has(edge));
  for (const id of x.neverRan ?? []) {
    add(`step "${id}" never ran`, 0, (run.steps.get(id)?.attempts.length ?? 0) + calls(id));
  }
  return out;
}

/**
 * A scenario's operator action as the command the CLI and the server send (shared/api's
 * RunAction), with the scenario's defaults for who and why; the service parses and dispatches it.
 */
function operatorCommand(op: NonNullable<Scenario['operator']>[number]): Record<string, unknown> {
  const who = { by: op.by ?? 'operator', reason: op.reason ?? `${op.action} in the scenario` };
  const need = (what: string | undefined, field: string): string => {
    if (what === undefined) throw new Error(`${op.action} needs "${field}"`);
    return what;
  };
  switch (op.action) {
    case 'pause':
    case 'resume':
    case 'cancel':
      return { action: op.action, ...who };
    case 'retry':
      return { action: 'retry', step: need(op.step, 'step'), ...(op.input === undefined ? {} : { input: op.input }), ...who };
    case 'skip':
      return { action: 'skip', step: need(op.step, 'step'), output: op.output ?? null, ...who };
    case 'resolve':
      return { action: 'resolve', step: need(op.step, 'step'), as: op.as ?? 'succeeded', ...(op.evidence === undefined ? {} : { evidence: op.evidence }), ...who };
    case 'keep':
      return { action: 'keep', step: need(op.step, 'step'), ...who };
    case 'fork':
      return { action: 'fork', from: op.from ?? '', ...(op.input === undefined ? {} : { input: op.input }), by: who.by };
  }
}

/** Runs an action that may throw before it returns its promise (a run not started yet, a bad step): a throw is a refusal too. */
function attempt(act: () => Promise<unknown>): Promise<unknown> {
  try {
    return act();
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/** Step and edge ids the scenario names that the workflow does not have (a typo would otherwise pass silently). */
export function unknownReferences(workflow: Workflow, scenario: Scenario): AssertionResult[] {
  const steps = new Set(workflow.steps.map((x) => x.id));
  const edges = new Set(workflow.edges.map((x) => x.id));
  const out: AssertionResult[] = [];
  const step = (where: string, id: string | undefined): void => {
    if (id !== undefined && !steps.has(id)) out.push({ what: `${where} names step "${id}"`, ok: false, expected: `a step of "${workflow.id}": ${[...steps].join(', ')}`, actual: 'no such step' });
  };
  const edge = (where: string, id: string): void => {
    if (!edges.has(id)) out.push({ what: `${where} names edge "${id}"`, ok: false, expected: `an edge of "${workflow.id}": ${[...edges].join(', ')}`, actual: 'no such edge' });
  };
  out.push(...scriptKeyProblems(workflow, 'steps', Object.keys(scenario.steps ?? {})));
  for (const d of scenario.decisions ?? []) step('decisions', d.step);
  for (const o of scenario.operator ?? []) step('operator', o.step);
  step('crash', scenario.crash?.step);
  for (const id of Object.keys(scenario.expect.steps ?? {})) step('expect.steps', id);
  for (const id of scenario.expect.neverRan ?? []) step('expect.neverRan', id);
  for (const id of scenario.expect.order ?? []) step('expect.order', id);
  for (const id of scenario.expect.path ?? []) edge('expect.path', id);
  for (const id of scenario.expect.notTaken ?? []) edge('expect.notTaken', id);
  return out;
}
