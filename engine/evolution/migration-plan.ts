// Whether a run can go on under another version of its workflow, and how (weft migrate; docs/
// evolution.md "Migration"). Steps map by id, with `map` overrides for renamed ones; then the
// checks of issue 22 part 3, each naming the step (and path) it concerns:
// - every active or waiting step (ready, running, retrying, waiting on a person, a timer, an
//   event, a child run) needs a counterpart of the same kind, under the same id;
// - every completed step's stored output must have what the new version still reads from it, by
//   the validator's read analysis (analyzeHandoffs), for every reader that has not run yet;
// - a new step upstream of completed work is a decision: skip it, or run it now;
// - an external step whose outcome is unknown, or whose attempt is in flight, keeps its config;
// - a changed join, or a changed loop bound, is judged against the run's state as it will be.
// Pure: it reads the run's model and the target definition, and writes nothing. The model the
// run would have is the fold's own (applyMigration, on a shallow copy), so what the plan judges
// is what the engine will run.
import type { MigrationDecision, MigrationPlan, MigrationRefusal } from '../../shared/api/migration.ts';
import type { Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { EventData } from '../../shared/events/run-event.ts';
import { indexDefinition } from '../../shared/run/definition-index.ts';
import { joinReadiness } from '../../shared/run/join-readiness.ts';
import { applyMigration } from '../../shared/run/migrate-model.ts';
import { currentAttempt, type RunModel, type StepRuntime } from '../../shared/run/run-model.ts';
import { isTerminal } from '../../shared/run/run-status.ts';
import { analyzeHandoffs } from '../../shared/validator/handoffs/analyze-handoffs.ts';
import { parsePath } from '../../shared/validator/handoffs/apply-fix.ts';
import { canonicalJson } from '../store/canonical-json.ts';

/** What the person asked for: renamed steps (old id → new id) and the choice for new steps upstream of completed work. */
export interface MigrationRequest {
  map?: Readonly<Record<string, string>>;
  decide?: Readonly<Record<string, 'skip' | 'run'>>;
}

const ACTIVE = new Set(['ready', 'running', 'retry_wait', 'waiting']);
const SETTLED = new Set(['succeeded', 'failed', 'unknown', 'rejected', 'cancelled', 'compensated']);

/** A step that has work done in this run (settled, not skipped): what a new step may come before. */
const isDone = (s: StepRuntime): boolean => SETTLED.has(s.state) || (s.state === 'skipped' && s.lastSettled !== null);

/**
 * The mapping of the run's steps to the target's: by id, then `map` (checked: the old id must be
 * a step of the run's version, the new one of the target). Throws an Error naming the bad pair.
 */
export function stepMapping(from: Workflow, to: Workflow, map: Readonly<Record<string, string>> = {}): Record<string, string> {
  const oldIds = new Set(from.steps.map((s) => s.id));
  const newIds = new Set(to.steps.map((s) => s.id));
  for (const [o, n] of Object.entries(map)) {
    if (!oldIds.has(o)) throw new Error(`--map ${o}=${n}: "${o}" is not a step of ${from.id} v${from.version} (its steps: ${[...oldIds].join(', ')})`);
    if (!newIds.has(n)) throw new Error(`--map ${o}=${n}: "${n}" is not a step of ${to.id} v${to.version} (its steps: ${[...newIds].join(', ')})`);
  }
  const mapping: Record<string, string> = {};
  const taken = new Set(Object.values(map));
  for (const id of oldIds) {
    const n = map[id] ?? (newIds.has(id) && !taken.has(id) ? id : undefined);
    if (n !== undefined) mapping[id] = n;
  }
  const twice = Object.values(mapping).find((n, i, all) => all.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`--map: two steps of v${from.version} map to "${twice}"; each new step takes at most one old one`);
  return mapping;
}

/** Steps reachable from `start` along forward (non-loop) edges, `start` excluded. */
function downstream(to: Workflow, start: string): Set<string> {
  const out = new Map<string, string[]>();
  for (const e of to.edges) if (e.maxTraversals === undefined) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const queue = [...(out.get(start) ?? [])];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(out.get(id) ?? []));
  }
  return seen;
}

/** The value at `path` below `value`, or `missing` when some segment is not there. */
function at(value: unknown, path: readonly (string | number)[]): { found: boolean } {
  let v: unknown = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, p)) return { found: false };
    v = (v as Record<string | number, unknown>)[p];
  }
  return { found: true };
}

const configOf = (s: Step): string => canonicalJson({ kind: s.kind, input: s.input, config: (s as { config?: unknown }).config, effect: s.effect, idempotencyKey: (s as { idempotencyKey?: unknown }).idempotencyKey });

/**
 * The plan of moving run `m` to `to` (whose snapshot hashes to `hash`): its verdict, mapping,
 * decisions, refusals and notes. Throws (an Error naming it) for a request that cannot apply to
 * these versions at all: a `map` naming a step neither has.
 *
 * @example
 * planMigration(model, v3, hash, { decide: { notify: 'run' } }).verdict; // 'safe'
 */
export function planMigration(m: RunModel, to: Workflow, hash: string, request: MigrationRequest = {}): MigrationPlan {
  const from = m.workflow;
  const refusals: MigrationRefusal[] = [];
  const notes: string[] = [];
  const base = { runId: m.runId, workflowId: from.id, state: m.state, fromVersion: from.version, toVersion: to.version };
  const empty = { ...base, mapping: {}, dropped: [], added: [], decisions: [] as MigrationDecision[], notes };
  if (to.id !== from.id) return { ...empty, verdict: 'refused', refusals: [{ code: 'other_workflow', message: `run ${m.runId} runs workflow "${from.id}"; version ${to.version} given is of "${to.id}"` }] };
  if (isTerminal(m.state)) return { ...empty, verdict: 'refused', refusals: [{ code: 'finished', message: `run ${m.runId} has finished (${m.state}); only a run that goes on can move` }] };
  if (m.failing !== null || m.compensation !== null) {
    return { ...empty, verdict: 'refused', refusals: [{ code: 'failing', ...(m.failing === null ? {} : { step: m.failing.stepId }), message: `run ${m.runId} is ${m.compensation === null ? 'failing' : 'compensating'}${m.failing === null ? '' : ` (step "${m.failing.stepId}")`}: it cannot move until that is over; retry, skip or resolve the step first` }] };
  }
  if (to.version === from.version) return { ...empty, verdict: 'refused', refusals: [{ code: 'same_version', message: `run ${m.runId} is on version ${from.version} already` }] };

  const mapping = stepMapping(from, to, request.map);
  const newIds = new Set(Object.values(mapping));
  const dropped = from.steps.map((s) => s.id).filter((id) => mapping[id] === undefined);
  const added = to.steps.map((s) => s.id).filter((id) => !newIds.has(id));
  const oldStep = new Map(from.steps.map((s) => [s.id, s]));
  const newStep = new Map(to.steps.map((s) => [s.id, s]));

  // 1. Active or waiting work needs a counterpart of the same kind (under its own id: the timers,
  //    tasks and attempts in flight are keyed by it).
  for (const s of m.steps.values()) {
    if (!ACTIVE.has(s.state)) continue;
    const was = oldStep.get(s.id) as Step;
    const n = mapping[s.id];
    const what = `${was.kind} step "${s.id}" is ${s.state}`;
    if (n === undefined) refusals.push({ code: 'no_counterpart', step: s.id, message: `${what}, and version ${to.version} has no counterpart for it: map it with --map ${s.id}=NEW, or let it settle first` });
    else if (n !== s.id) refusals.push({ code: 'active_renamed', step: s.id, message: `${what}: a step with work in flight keeps its id under migration; map it to "${s.id}", or rename it once it has settled` });
    else if (newStep.get(n)?.kind !== was.kind) refusals.push({ code: 'kind_changed', step: s.id, message: `${what}, and in version ${to.version} "${n}" is a ${newStep.get(n)?.kind ?? '?'} step: the work it waits on has no counterpart of the same kind` });
  }

  // 2. An external step whose outcome is unknown, or whose attempt is in flight, keeps its config.
  for (const s of m.steps.values()) {
    const was = oldStep.get(s.id) as Step;
    const n = mapping[s.id];
    if (was.effect !== 'external' || n === undefined) continue;
    const a = currentAttempt(s);
    const unknown = s.state === 'unknown' || m.unknowns.some((u) => u.stepId === s.id);
    const inFlight = a?.state === 'running';
    if (!unknown && !inFlight) continue;
    const now = newStep.get(n) as Step;
    if (configOf(was) !== configOf(now)) {
      refusals.push({ code: 'external_config_changed', step: s.id, message: `external step "${s.id}" has ${unknown ? 'an attempt whose outcome is unknown' : 'an attempt in flight'}, and version ${to.version} changes its config (or input, effect, idempotency key): what happened outside cannot be judged against another config; resolve the step first` });
    }
  }

  // 3. New steps upstream of completed work: skip or run, as decided.
  const decisions: MigrationDecision[] = [];
  const decide = request.decide ?? {};
  for (const [id] of Object.entries(decide)) {
    if (!added.includes(id)) refusals.push({ code: 'bad_decision', step: id, message: `--decide ${id}: "${id}" is not a new step of version ${to.version} upstream of completed work${added.length > 0 ? ` (new steps: ${added.join(', ')})` : ''}` });
  }
  const doneNew = new Set([...m.steps.values()].filter(isDone).flatMap((s) => (mapping[s.id] === undefined ? [] : [mapping[s.id] as string])));
  const wanted: Record<string, 'skip' | 'run'> = {};
  for (const id of added) {
    const before = [...downstream(to, id)].filter((x) => doneNew.has(x));
    if (before.length === 0) {
      notes.push(`new step "${id}" runs when the run reaches it`);
      continue;
    }
    const choice = decide[id] ?? null;
    if (choice !== null) wanted[id] = choice;
    decisions.push({
      step: id,
      before,
      choice,
      message: `new step "${id}" comes before ${before.map((x) => `"${x}"`).join(', ')}, which ${before.length === 1 ? 'has' : 'have'} completed: it would have run first. ${choice === null ? `Decide: --decide ${id}=skip (leave it out of this run) or --decide ${id}=run (run it now)` : choice === 'skip' ? 'It is skipped in this run' : 'It runs now; the work after it is not run again'}`,
    });
  }

  // The run as it would be: the fold's own migration, on a shallow copy.
  const data: EventData<'run_migrated'> = { fromVersion: from.version, toVersion: to.version, definitionHash: hash, mapping, decisions: wanted, by: 'plan', definition: to, fromDefinition: from };
  const after: RunModel = { ...m };
  applyMigration(after, { runId: m.runId, seq: m.lastSeq + 1, at: m.updatedAt, type: 'run_migrated', step: null, activation: null, attempt: null, data, reason: null });
  const index = indexDefinition(to);

  // 4. Completed work must have what the new version still reads from it.
  const handoffs = analyzeHandoffs(to);
  const pendingReaders = [...after.steps.values()].filter((s) => s.state === 'blocked' || ACTIVE.has(s.state)).map((s) => s.id);
  const reads = [...pendingReaders.flatMap((id) => (handoffs.steps[id] ?? []).map((r) => ({ r, reader: `step "${id}"` }))), ...handoffs.workflowOutput.map((r) => ({ r, reader: "the workflow's output" }))];
  const seen = new Set<string>();
  for (const { r, reader } of reads) {
    if (r.source.kind !== 'step' || r.guarded) continue;
    const src = after.steps.get(r.source.stepId);
    if (src === undefined || !(src.state === 'succeeded' || src.state === 'rejected') || !(r.source.stepId in after.view)) continue;
    const path = parsePath(`$.${r.field}`);
    if (path[0] !== 'steps' || path[2] !== 'output') continue;
    if (at(after.view[r.source.stepId]?.output, path.slice(3)).found || seen.has(r.field)) continue;
    seen.add(r.field);
    refusals.push({ code: 'output_lacks_read', step: r.source.stepId, path: r.field, message: `${reader} of version ${to.version} reads ${r.field}, and the output "${r.source.stepId}" stored in this run has no such field: the step would fail with input_error; guard the read with $exists, or migrate only runs whose output has it` });
  }

  // 5. A changed join, or a changed loop bound, judged against the run's state.
  for (const step of to.steps) {
    if (step.kind !== 'join') continue;
    const oldId = Object.entries(mapping).find(([, n]) => n === step.id)?.[0];
    const was = oldId === undefined ? undefined : oldStep.get(oldId);
    const inputs = (w: Workflow, id: string): string => w.edges.filter((e) => e.to === id && e.maxTraversals === undefined).map((e) => e.from).sort().join(',');
    const changed = was === undefined || canonicalJson((was as { config?: unknown }).config ?? null) !== canonicalJson(step.config ?? null) || inputs(from, oldId ?? '').split(',').map((x) => mapping[x] ?? `-${x}`).sort().join(',') !== inputs(to, step.id);
    if (!changed || was === undefined) continue;
    const s = after.steps.get(step.id) as StepRuntime;
    if (s.state !== 'blocked') {
      notes.push(`join "${step.id}" changed (mode or inputs); it has ${s.state === 'skipped' ? 'been skipped' : `settled (${s.state})`} in this pass, and its next pass joins by the new rule`);
      continue;
    }
    const r = joinReadiness(after, index, step, s.openedSeq);
    if (r.kind === 'fail') refusals.push({ code: 'join_cannot_be_met', step: step.id, message: `join "${step.id}" changed (mode or inputs), and with the branches this run has it can no longer go on: ${r.reason}` });
    else notes.push(`join "${step.id}" changed (mode or inputs); judged against this run: ${r.reason ?? (r.kind === 'activate' ? 'it can go on' : 'it waits for its branches')}`);
  }
  for (const e of to.edges) {
    if (e.maxTraversals === undefined) continue;
    const was = from.edges.find((x) => x.id === e.id);
    if (was?.maxTraversals === e.maxTraversals) continue;
    const used = m.traversals.get(e.id) ?? 0;
    if (was === undefined || was.maxTraversals === undefined) {
      if (used > 0) notes.push(`loop edge "${e.id}" is new or newly bounded (${e.maxTraversals})`);
      continue;
    }
    if (used > e.maxTraversals) refusals.push({ code: 'loop_past_bound', step: e.from, message: `loop edge "${e.id}" has been taken ${used} times in this run, past its new bound maxTraversals ${e.maxTraversals} (was ${was.maxTraversals})` });
    else notes.push(`loop edge "${e.id}": maxTraversals ${was.maxTraversals} → ${e.maxTraversals}; taken ${used} times so far, ${e.maxTraversals - used} more allowed`);
  }

  const verdict = refusals.length > 0 ? 'refused' : decisions.some((d) => d.choice === null) ? 'needs_decision' : 'safe';
  return { ...base, verdict, mapping, dropped, added, decisions, refusals, notes };
}
