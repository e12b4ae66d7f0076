// Workflows for the engine benchmark, as plain data: chains of no-op steps, a wide fan-out into an
// `all` join, and runs that park on a long timer (for recovery). Each is parsed and validated like
// the CLI does, so the benchmark never measures a definition the product would refuse.
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';

export type WorkKind =
  /** transform with a trivial expression: runs inline in the scheduler's tick */
  | 'transform'
  /** `command` step with effect idempotent, run by whatever executor the engine has for `command` */
  | 'command'
  /** the same with effect external: its attempt start is fsynced */
  | 'external';

function workStep(id: string, kind: WorkKind, argv: readonly string[]): Step {
  if (kind === 'transform') return { id, kind: 'transform', config: { expression: '1' } };
  return {
    id,
    kind: 'command',
    effect: kind === 'external' ? 'external' : 'idempotent',
    config: { argv: [...argv] },
    onExhausted: 'escalate',
  };
}

function edge(from: Step, to: string): Edge {
  return { id: `${from.id}-${to}`, from: from.id, to, ...(from.effect === 'external' ? { on: ['succeeded', 'unknown'] } : {}) };
}

/** `steps` steps in a row: steps-1 work steps and an end. */
export function chainWorkflow(steps: number, kind: WorkKind, argv: readonly string[] = ['sh', '-c', 'echo {}']): Workflow {
  const work = Array.from({ length: steps - 1 }, (_, k) => workStep(`s${k + 1}`, kind, argv));
  const all: Step[] = [...work, { id: 'end', kind: 'end' }];
  const edges = all.slice(1).map((s, k) => edge(all[k] as Step, s.id));
  return parseWorkflow({ format: 'weft/v1', id: `bench-chain-${kind}-${steps}`, version: 1, name: `${steps} ${kind} steps in a row`, steps: all, edges });
}

/** start, `width` parallel transforms, an `all` join and an end: width + 3 steps. */
export function fanOutWorkflow(width: number): Workflow {
  const branches = Array.from({ length: width }, (_, k) => workStep(`b${k + 1}`, 'transform', []));
  const steps: Step[] = [
    { id: 'start', kind: 'transform', config: { expression: '1' } },
    ...branches,
    { id: 'gather', kind: 'join', config: { mode: 'all' } },
    { id: 'end', kind: 'end' },
  ];
  const edges: Edge[] = [
    ...branches.map((b) => ({ id: `start-${b.id}`, from: 'start', to: b.id })),
    ...branches.map((b) => ({ id: `${b.id}-gather`, from: b.id, to: 'gather' })),
    { id: 'gather-end', from: 'gather', to: 'end' },
  ];
  return parseWorkflow({ format: 'weft/v1', id: `bench-fan-out-${width}`, version: 1, name: `fan-out of ${width}`, steps, edges });
}

/** A transform, then a wait of `durationMs`, then an end: a run that stays unfinished for a long time. */
export function parkedWorkflow(durationMs: number): Workflow {
  return parseWorkflow({
    format: 'weft/v1',
    id: 'bench-parked',
    version: 1,
    name: 'parked on a timer',
    steps: [
      { id: 'prepare', kind: 'transform', config: { expression: '1' } },
      { id: 'pause', kind: 'wait', config: { durationMs } },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { id: 'prepare-pause', from: 'prepare', to: 'pause' },
      { id: 'pause-end', from: 'pause', to: 'end' },
    ],
  });
}

/**
 * The same workflow under governance: each work step tagged and billed a declared cost per call,
 * with a run budget in its limits, so every attempt meets the policy's checks, a budget check and
 * a recorded cost (what the "policies and cost accounting" rows of the engine bench measure).
 * Not `billed`: the same checks, but no step declares a cost, so no attempt records one (the row
 * that tells the policies' share from the cost accounting's).
 */
export function governedWorkflow(base: Workflow, billed = true): Workflow {
  const steps = base.steps.map((s) => (s.kind === 'end' ? s : { ...s, tags: ['bench'], ...(billed ? { cost: { perCall: 0.0001 } } : {}) }));
  return parseWorkflow({ ...base, id: `${base.id}-governed`, steps, limits: { ...base.limits, budget: 1_000 } });
}
