// A replay (weft replay, issue 22 part 1; docs/evolution.md "Replay"): the source run's input run
// on another definition by the real engine, on an in-memory store, in virtual time, with no
// executor but the RecordedExecutor: every call of a step that does work is answered from the
// source run's recorded attempt with the same input hash, a person's decision is the one the
// source recorded for the same input, at the source's moment of it (or, when the replay reaches
// the task later, as long after its opening as in the source), and the events
// the source was delivered arrive at their offsets. Operator actions of the source are not
// replayed. A call with no recording stops the replay there (or takes the `--script` answer).
// The virtual run is then stored apart, as a run of kind 'replay' (engine/store/replay-runs.ts),
// and compared with the source (shared/run/compare-runs.ts) for a verdict (replay-verdict.ts).
import type { StepKind } from '../../shared/definition/names.ts';
import { kindsWhere } from '../../shared/definition/step-kinds.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { NeedsRecordingInfo, ReplayAgainstInfo, ReplayResult } from '../../shared/api/replay-result.ts';
import { compareRuns } from '../../shared/run/compare-runs.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import type { Executor } from '../executors/executor.ts';
import { Engine } from '../runtime/engine.ts';
import { foldRun } from '../runtime/fold-run.ts';
import { seededRandom, VirtualClock } from '../runtime/virtual-clock.ts';
import { settleEngine } from '../scenario/drive.ts';
import type { Script } from '../scenario/scripted-executor.ts';
import { definitionHash } from '../store/definition-content.ts';
import { openDatabase } from '../store/open-database.ts';
import { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import type { Clock, Random } from '../time/clock.ts';
import { RecordedExecutor } from './replay-executor.ts';
import { recordingsOf, type RecordedDecision } from './replay-recordings.ts';
import { differsBeyondClock, replayVerdict } from './replay-verdict.ts';
import { readOf } from '../../shared/run/revalidation-fetched.ts';

/** The kinds whose work runs outside the engine: the RecordedExecutor answers them all. */
const OUTSIDE_KINDS: readonly StepKind[] = kindsWhere((k) => k.outside);

/** A replay stops after this many virtual timers (a loop that never ends). */
const MAX_TIMERS = 1_000_000;

/** The definition to replay on: a stored version, or a file or draft (`file` names it). */
export interface ReplayAgainst {
  workflow: Workflow;
  version?: number;
  file?: string;
}

export interface ReplayOptions {
  /** Answers for calls with no recording, by step id (the schema of a scenario's `steps`). */
  script?: Script;
  /** The real clock: the replay is stored at its now (the virtual run starts at the source's start). */
  clock: Clock;
  random: Random;
}

/**
 * Replays run `sourceIdOrPrefix` of `store` on `against` and stores the replay as a run of kind
 * 'replay'. StoreError 'unknown-run' for an unknown run, 'refused' for a replay as the source,
 * 'bad-input' for a definition of another workflow.
 *
 * @example
 * const r = await replayRun(store, 'rmx1', { workflow: fixed, file: 'fixed.json' }, { clock: systemClock, random: Math.random });
 * r.verdict; // 'fixed'
 */
export async function replayRun(store: Store, sourceIdOrPrefix: string, against: ReplayAgainst, o: ReplayOptions): Promise<ReplayResult> {
  const sourceId = store.resolveRunId(sourceIdOrPrefix);
  if (store.isReplayRun(sourceId)) throw new StoreError('refused', `run ${sourceId} is itself a replay; replay the run it replays instead`);
  const events = store.readEvents(sourceId);
  const created = events[0];
  if (created?.type !== 'run_created') throw new StoreError('unknown-run', `no run "${sourceId}" in this store; list runs with \`weft runs\``);
  const workflow = against.workflow;
  if (workflow.id !== created.data.workflowId) {
    throw new StoreError('bad-input', `run ${sourceId} is a run of workflow "${created.data.workflowId}", and the definition to replay it on is of "${workflow.id}"; give a version or file of "${created.data.workflowId}"`);
  }
  const info: ReplayAgainstInfo = {
    workflowId: workflow.id,
    ...(against.version === undefined ? {} : { version: against.version }),
    ...(against.file === undefined ? {} : { file: against.file }),
    definitionHash: definitionHash(workflow),
  };
  const virtual = await runVirtually(events, workflow, o);
  const replayEvents = virtual.events.map((e, k) => (k === 0 && e.type === 'run_created' ? { ...e, data: { ...e.data, replayOf: { runId: sourceId, against: info } } } : e));
  store.saveReplayRun({ runId: virtual.runId, workflow, events: replayEvents, state: virtual.state }, o.clock.now());
  const source = foldRun(store, sourceId, events);
  const replay = foldRun(store, virtual.runId);
  const comparison = compareRuns(runDetail(source), runDetail(replay), { a: source.workflow, b: replay.workflow });
  return {
    replayRunId: virtual.runId,
    sourceRunId: sourceId,
    against: info,
    verdict: replayVerdict(source.state, replay.state, differsBeyondClock(comparison, workflow), virtual.needs !== undefined),
    ...(virtual.needs === undefined ? {} : { needsRecording: virtual.needs }),
    sourceState: source.state,
    replayState: replay.state,
    comparison,
  };
}

interface VirtualRun {
  runId: string;
  events: RunEvent[];
  state: ReplayResult['replayState'];
  needs?: NeedsRecordingInfo;
}

/** Runs the source's input on `workflow` in virtual time, on a store in memory; its events and where it stopped. */
async function runVirtually(source: readonly RunEvent[], workflow: Workflow, o: ReplayOptions): Promise<VirtualRun> {
  const created = source[0];
  if (created?.type !== 'run_created') throw new Error('a run log starts with run_created');
  const recordings = recordingsOf(source);
  // Virtual time starts when the source run started: what a step records of the time (a person's
  // decision's `at`) comes out the same when it happens at the same offset.
  const clock = new VirtualClock(created.at);
  const db = openDatabase(':memory:');
  const mem = new Store(db);
  let needs: NeedsRecordingInfo | undefined;
  const stop = (n: NeedsRecordingInfo): void => {
    needs ??= n;
  };
  // Called only once the engine below is made (by its executor and its commits).
  // A revalidate check's read (STEP.revalidate) goes by the hash of its step's attempt, as recorded.
  const attemptHash = (runId: string, stepId: string, activation: number, attempt: number): string | undefined =>
    live.model(runId)?.steps.get(readOf(stepId) ?? stepId)?.attempts.find((a) => a.activation === activation && a.number === attempt)?.inputHash;
  const recorded = new RecordedExecutor({
    clock,
    attempts: recordings.attempts,
    inputHashOf: (ctx) => attemptHash(ctx.runId, ctx.stepId, ctx.activation, ctx.attempt),
    ...(o.script === undefined ? {} : { script: o.script }),
    onNeedsRecording: stop,
  });
  const executors: Partial<Record<StepKind, Executor>> = {};
  for (const kind of OUTSIDE_KINDS) executors[kind] = recorded;
  // Its own seed from the caller's randomness: replays made in the same millisecond get other ids.
  const random = seededRandom(Math.floor(o.random() * 2 ** 32));
  const live = new Engine({ store: mem, clock, random, executors });
  try {
    const hash = mem.saveDefinition(workflow, clock.now());
    const runId = live.startRun({ workflow, definitionHash: hash, input: created.data.input, workspaceDir: created.data.workspaceDir });
    const decided = new Map<string, number>();
    const problems: string[] = [];
    mem.subscribe(({ event: e }) => {
      if (e.type !== 'task_opened' || e.runId !== runId || e.step === null) return;
      const stepId = e.step;
      const hashNow = attemptHash(runId, stepId, e.activation ?? 0, e.attempt ?? 0);
      const key = `${stepId}\u0000${hashNow ?? ''}`;
      const n = decided.get(key) ?? 0;
      const d: RecordedDecision | undefined = (recordings.decisions.get(stepId) ?? []).filter((x) => x.inputHash === hashNow)[n];
      if (d === undefined) {
        const any = (recordings.decisions.get(stepId) ?? []).length > 0;
        stop({ stepId, reason: 'a decision of a person', why: any ? `the task of step "${stepId}" opened with an input no recorded decision was made on` : `the task of step "${stepId}" has no recorded decision in the source run` });
        return;
      }
      decided.set(key, n + 1);
      // At the source's moment of the decision when the replay reached the task by then (so a
      // decision's recorded time comes out the same), else as long after the task opened.
      const atSource = created.at + d.atMs;
      const at = e.at <= atSource ? atSource : e.at + d.afterMs;
      clock.setTimer(at - clock.now(), () => {
        live.decideTask(runId, stepId, {
          decision: d.decision,
          by: d.by,
          ...(d.data === undefined ? {} : { data: d.data }),
          ...(d.choice === undefined ? {} : { choice: d.choice }),
          ...(d.reason === undefined ? {} : { reason: d.reason }),
        }).catch((err: unknown) => problems.push((err as Error).message));
      });
    });
    for (const ev of recordings.events) {
      clock.setTimer(ev.atMs, () => {
        live.sendEvent({ id: ev.id, name: ev.name, key: ev.key, data: ev.data, receivedAt: clock.now() }).catch((err: unknown) => problems.push((err as Error).message));
      });
    }
    for (let fired = 0; ; fired++) {
      await settleEngine(live, () => needs !== undefined);
      if (needs !== undefined) break;
      if (fired >= MAX_TIMERS) throw new StoreError('refused', `the replay was still running after ${MAX_TIMERS} virtual timers; does a loop never end?`);
      if (!clock.advance()) break;
    }
    live.flush();
    const state = live.model(runId)?.state ?? mem.getRun(runId)?.state ?? 'running';
    return { runId, events: mem.readEvents(runId), state, ...(needs === undefined ? {} : { needs }) };
  } finally {
    live.close();
    db.close();
  }
}
