// The step-kind registry: what the definition format, the validator and the engine know about each
// step kind, in one record keyed by kind (as n8n's node descriptions and tldraw's ShapeUtil do).
// A name added to STEP_KINDS (names.ts) without an entry here does not compile; neither does one
// without its entry in the renderer's table (renderer/kinds/kind-views.ts) or, by its route, its
// handler (engine/runtime/engine.ts), executor (engine/executors/default-executors.ts) or inline
// run (engine/runtime/inline-steps.ts). docs/engine.md, "Adding a step kind", walks through it.
import type { z } from 'zod';
import type { EdgeOutcome, StepKind } from './names.ts';
import { STEP_KINDS } from './names.ts';
import { stepSchema } from './step-common.ts';
import {
  AgentConfig,
  CommandConfig,
  EndConfig,
  EventConfig,
  HttpConfig,
  HumanConfig,
  JoinConfig,
  MapConfig,
  RouterConfig,
  ScriptConfig,
  SubworkflowConfig,
  TransformConfig,
  WaitConfig,
} from './step-config.ts';

/** Where the palette groups a kind, and the colour its steps are drawn in. */
export type KindFamily = 'work' | 'data' | 'people' | 'time' | 'flow' | 'nested';

/**
 * How an attempt of the kind runs: `inline` inside the scheduler's tick (a pure step), `handler`
 * through the engine's handler of the kind (a timer, a person, an event, child runs), `executor`
 * by an executor started after the tick's commit. `outside` is true when the attempt's work runs
 * outside the engine (a process, a request, child runs): a drain holds such attempts back, a
 * resource pool counts them, and a scenario test scripts their outcomes.
 */
export type KindRoute =
  | { route: 'inline'; outside: false }
  | { route: 'handler'; outside: boolean }
  | { route: 'executor'; outside: true };

/** What a kind is, besides its config schema; `S` is the type of a step of the kind. */
export type KindTraits<S> = KindRoute & {
  /** Outcomes a step of the kind can settle with, most common first (what its edges may follow). */
  outcomes: readonly EdgeOutcome[];
  family: KindFamily;
  /** Whether a step can end in a failure outcome (failed, rejected, expired, timed out); a rule when it depends on the step. */
  canFail: boolean | ((step: S) => boolean);
  /**
   * Whether the attempt itself acts on the world (a call, a process), so that its `effect`
   * describes it: an `external` one whose reply is lost or late ends `unknown`, not `timed_out`.
   */
  canHaveEffect: boolean;
  /**
   * What a step reads from its run's folder: `code` runs code found there (only in a trusted
   * workspace), `workflows` finds its child workflows there, `none` reads nothing.
   */
  folder: 'code' | 'workflows' | 'none';
  /**
   * Whether a step of the kind may give a handoff record (`handoff: true`): its own work shapes
   * its output (a reply, a script's value, a child's result), so the record can be a key of it.
   * Kinds whose output the engine builds (a person's answer, an event, an http reply) cannot.
   */
  handoff: boolean;
};

type StepOfSchema<K extends string, C extends z.ZodType> = z.output<ReturnType<typeof stepSchema<K, C>>>;

/** One entry of the registry: the kind's step schema (from its config schema) and its traits. */
function defineKind<K extends StepKind, C extends z.ZodType, const T extends KindTraits<StepOfSchema<K, C>>>(name: K, config: C, traits: T) {
  return { schema: stepSchema(name, config), ...traits };
}

export const KIND_SPECS = {
  agent: defineKind('agent', AgentConfig, {
    route: 'executor', outside: true, family: 'work', outcomes: ['succeeded', 'failed', 'timed_out', 'budget_exceeded'],
    canFail: true, canHaveEffect: true, folder: 'none', handoff: true,
  }),
  script: defineKind('script', ScriptConfig, {
    route: 'executor', outside: true, family: 'work', outcomes: ['succeeded', 'failed', 'timed_out', 'budget_exceeded', 'partial'],
    canFail: true, canHaveEffect: true, folder: 'code', handoff: true,
  }),
  command: defineKind('command', CommandConfig, {
    route: 'executor', outside: true, family: 'work', outcomes: ['succeeded', 'failed', 'timed_out', 'unknown', 'budget_exceeded', 'partial'],
    canFail: true, canHaveEffect: true, folder: 'code', handoff: true,
  }),
  http: defineKind('http', HttpConfig, {
    route: 'executor', outside: true, family: 'work', outcomes: ['succeeded', 'failed', 'timed_out', 'budget_exceeded'],
    canFail: true, canHaveEffect: true, folder: 'none', handoff: false,
  }),
  human: defineKind('human', HumanConfig, {
    route: 'handler', outside: false, family: 'people', outcomes: ['succeeded', 'rejected', 'expired'],
    canFail: true, canHaveEffect: false, folder: 'none', handoff: false,
  }),
  wait: defineKind('wait', WaitConfig, {
    route: 'handler', outside: false, family: 'time', outcomes: ['succeeded'],
    canFail: false, canHaveEffect: false, folder: 'none', handoff: false,
  }),
  event: defineKind('event', EventConfig, {
    route: 'handler', outside: false, family: 'time', outcomes: ['succeeded', 'expired'],
    canFail: true, canHaveEffect: false, folder: 'none', handoff: false,
  }),
  router: defineKind('router', RouterConfig.optional(), {
    route: 'inline', outside: false, family: 'flow', outcomes: ['succeeded'],
    canFail: false, canHaveEffect: false, folder: 'none', handoff: false,
  }),
  join: defineKind('join', JoinConfig.optional(), {
    route: 'inline', outside: false, family: 'flow', outcomes: ['succeeded', 'failed'],
    // It fails when it can no longer be met: a failed branch under the default `onFailedBranch:
    // "fail"`, or too few branches left for `atLeast`.
    canFail: (step) => step.config?.mode !== 'any' || step.config.onFailedBranch !== 'ignore',
    canHaveEffect: false, folder: 'none', handoff: false,
  }),
  map: defineKind('map', MapConfig, {
    route: 'handler', outside: true, family: 'nested', outcomes: ['succeeded', 'failed'],
    canFail: true, canHaveEffect: false, folder: 'workflows', handoff: false,
  }),
  subworkflow: defineKind('subworkflow', SubworkflowConfig, {
    route: 'handler', outside: true, family: 'nested', outcomes: ['succeeded', 'failed'],
    canFail: true, canHaveEffect: false, folder: 'workflows', handoff: true,
  }),
  transform: defineKind('transform', TransformConfig, {
    route: 'inline', outside: false, family: 'data', outcomes: ['succeeded', 'failed'],
    // Its expression cannot fail a valid definition, but its output schema and acceptance rule can.
    canFail: (step) => step.output !== undefined || step.accept !== undefined,
    canHaveEffect: false, folder: 'none', handoff: true,
  }),
  end: defineKind('end', EndConfig.optional(), {
    route: 'inline', outside: false, family: 'flow', outcomes: [],
    canFail: false, canHaveEffect: false, folder: 'none', handoff: false,
  }),
} satisfies { [K in StepKind]: { schema: { shape: { kind: z.ZodLiteral<K> } } } };

type Specs = typeof KIND_SPECS;

/** A step of kind K, as the definition format gives it. */
export type StepOf<K extends StepKind> = { [P in StepKind]: z.output<Specs[P]['schema']> }[K];

/** The kinds whose entry has `route: R`. */
type KindsRouted<R extends KindRoute['route']> = { [K in StepKind]: Specs[K]['route'] extends R ? K : never }[StepKind];
/** Kinds run inside the scheduler's tick (engine/runtime/inline-steps.ts runs each). */
export type InlineKind = KindsRouted<'inline'>;
/** Kinds run by a handler of the engine (engine/runtime/engine.ts registers one for each). */
export type HandlerKind = KindsRouted<'handler'>;
/** Kinds run by an executor (engine/executors/default-executors.ts has one for each). */
export type ExecutorKind = KindsRouted<'executor'>;

// The registry seen by kind, so that a rule of kind K takes a step of kind K (a correlated record).
const TRAITS: { [K in StepKind]: KindTraits<StepOf<K>> } = KIND_SPECS;

function canFailAs<K extends StepKind>(kind: K, step: StepOf<K>): boolean {
  const rule = TRAITS[kind].canFail;
  return typeof rule === 'boolean' ? rule : rule(step);
}

/**
 * Whether a step can end in a failure outcome (failed, rejected, expired, timed out).
 *
 * @example
 * canFail({ id: 'shape', kind: 'transform', config: { expression: 'input' } }) // false: nothing checks its output
 */
export function canFail(step: StepOf<StepKind>): boolean {
  return canFailAs(step.kind, step);
}

/** True when a step of `kind` runs inside the scheduler's tick. */
export function runsInline(kind: StepKind): kind is InlineKind {
  return KIND_SPECS[kind].route === 'inline';
}

/** True when a handler of the engine runs the attempts of `kind`. */
export function isHandled(kind: StepKind): kind is HandlerKind {
  return KIND_SPECS[kind].route === 'handler';
}

/** True for kinds whose attempts run outside the engine (a process, a request, child runs). */
export function runsOutside(kind: StepKind): boolean {
  return KIND_SPECS[kind].outside;
}

/** True for kinds that wait inside the engine on the world (a timer, a person, an event): also the kinds that may declare `revalidate`. */
export function waitsOnTheWorld(kind: StepKind): boolean {
  const spec = KIND_SPECS[kind];
  return spec.route === 'handler' && !spec.outside;
}

/**
 * Every kind whose entry passes `test`, in the order of STEP_KINDS.
 *
 * @example
 * kindsWhere((k) => k.folder === 'code') // ['script', 'command']
 */
export function kindsWhere(test: (spec: KindTraits<never>) => boolean): StepKind[] {
  return STEP_KINDS.filter((k) => test(TRAITS[k]));
}

/**
 * True for kinds whose attempts are billed (a call, a process, a request: docs/budgets.md): the
 * kinds that can settle `budget_exceeded`, because a run's budget is checked before each attempt.
 *
 * @example
 * billsAttempts('agent') // true
 * billsAttempts('human') // false
 */
export function billsAttempts(kind: StepKind): boolean {
  return (KIND_SPECS[kind].outcomes as readonly EdgeOutcome[]).includes('budget_exceeded');
}
