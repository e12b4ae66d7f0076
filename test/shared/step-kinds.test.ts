// The step-kind registry as a table: what each kind is to the definition format, the validator and
// the engine. The rows are what the scattered lists said before the registry (the external-kinds
// list of kind-outcomes, INLINE_KINDS, WAITING_KINDS, SCRIPTED_KINDS, ALWAYS_CAN_FAIL, the folder
// and code kinds of the service), so a changed trait is a deliberate change of this table.
import { describe, expect, it } from 'vitest';
import { STEP_KINDS, type StepKind } from '../../shared/definition/names.ts';
import { billsAttempts, canFail, isHandled, KIND_SPECS, kindsWhere, runsInline, runsOutside, waitsOnTheWorld } from '../../shared/definition/step-kinds.ts';
import { Step } from '../../shared/definition/workflow-schema.ts';

type Row = [kind: StepKind, route: string, outside: boolean, canHaveEffect: boolean, folder: string, family: string];

const ROWS: Row[] = [
  ['agent', 'executor', true, true, 'none', 'work'],
  ['script', 'executor', true, true, 'code', 'work'],
  ['command', 'executor', true, true, 'code', 'work'],
  ['http', 'executor', true, true, 'none', 'work'],
  ['human', 'handler', false, false, 'none', 'people'],
  ['wait', 'handler', false, false, 'none', 'time'],
  ['event', 'handler', false, false, 'none', 'time'],
  ['router', 'inline', false, false, 'none', 'flow'],
  ['join', 'inline', false, false, 'none', 'flow'],
  ['map', 'handler', true, false, 'workflows', 'nested'],
  ['subworkflow', 'handler', true, false, 'workflows', 'nested'],
  ['transform', 'inline', false, false, 'none', 'data'],
  ['end', 'inline', false, false, 'none', 'flow'],
];

const step = (value: unknown): Step => Step.parse(value);

describe('step-kind registry', () => {
  it('has a row for every kind, in the order of STEP_KINDS', () => {
    expect(ROWS.map((r) => r[0])).toEqual([...STEP_KINDS]);
    expect(Object.keys(KIND_SPECS)).toEqual([...STEP_KINDS]);
  });

  it("makes the definition format's Step union: one member per kind, in the order of STEP_KINDS", () => {
    expect(Step.options.map((o) => o.shape.kind.value)).toEqual([...STEP_KINDS]);
    const parsed = Step.safeParse({ id: 'x', kind: 'transform', config: { expression: 'input' }, extra: 1 });
    expect(parsed.success).toBe(false);
    expect(Step.safeParse({ id: 'x', kind: 'noop' }).success).toBe(false);
  });

  it.each(ROWS)('%s: route %s, outside %s, effect %s, folder %s, family %s', (kind, route, outside, canHaveEffect, folder, family) => {
    const spec = KIND_SPECS[kind];
    expect({ route: spec.route, outside: spec.outside, canHaveEffect: spec.canHaveEffect, folder: spec.folder, family: spec.family }).toEqual({ route, outside, canHaveEffect, folder, family });
    expect(runsInline(kind)).toBe(route === 'inline');
    expect(isHandled(kind)).toBe(route === 'handler');
    expect(runsOutside(kind)).toBe(outside);
    expect(waitsOnTheWorld(kind)).toBe(route === 'handler' && !outside);
  });

  it('names the kinds each part of the engine treats alike', () => {
    expect(kindsWhere((k) => k.route === 'inline')).toEqual(['router', 'join', 'transform', 'end']);
    expect(STEP_KINDS.filter(waitsOnTheWorld)).toEqual(['human', 'wait', 'event']);
    expect(kindsWhere((k) => k.outside)).toEqual(['agent', 'script', 'command', 'http', 'map', 'subworkflow']);
    expect(kindsWhere((k) => k.canHaveEffect)).toEqual(['agent', 'script', 'command', 'http']);
    expect(kindsWhere((k) => k.folder === 'code')).toEqual(['script', 'command']);
    expect(kindsWhere((k) => k.folder !== 'none')).toEqual(['script', 'command', 'map', 'subworkflow']);
  });

  it('says which steps can end in a failure outcome', () => {
    const always = ['agent', 'script', 'command', 'http', 'human', 'event', 'map', 'subworkflow'];
    expect(kindsWhere((k) => k.canFail === true)).toEqual(always);
    expect(kindsWhere((k) => k.canFail === false)).toEqual(['wait', 'router', 'end']);
    expect(canFail(step({ id: 'w', kind: 'wait', config: { durationMs: 5 } }))).toBe(false);
    expect(canFail(step({ id: 'h', kind: 'human', config: { task: 'approve', title: 'OK?' } }))).toBe(true);
    // A join fails when it can no longer be met, unless it waits for any branch and ignores failed ones.
    expect(canFail(step({ id: 'j', kind: 'join' }))).toBe(true);
    expect(canFail(step({ id: 'j', kind: 'join', config: { mode: 'any' } }))).toBe(true);
    expect(canFail(step({ id: 'j', kind: 'join', config: { mode: 'all', onFailedBranch: 'ignore' } }))).toBe(true);
    expect(canFail(step({ id: 'j', kind: 'join', config: { mode: 'any', onFailedBranch: 'ignore' } }))).toBe(false);
    // A transform fails only on an output schema or acceptance rule it does not meet.
    expect(canFail(step({ id: 't', kind: 'transform', config: { expression: 'input' } }))).toBe(false);
    expect(canFail(step({ id: 't', kind: 'transform', config: { expression: 'input' }, output: { type: 'object' } }))).toBe(true);
    expect(canFail(step({ id: 't', kind: 'transform', config: { expression: 'input' }, accept: 'output.ok' }))).toBe(true);
  });

  it('says which kinds bill their attempts: those that can settle budget_exceeded', () => {
    expect(STEP_KINDS.filter(billsAttempts)).toEqual(['agent', 'script', 'command', 'http']);
  });

  it('gives each kind the outcomes its edges may follow', () => {
    expect(Object.fromEntries(STEP_KINDS.map((k) => [k, KIND_SPECS[k].outcomes]))).toEqual({
      agent: ['succeeded', 'failed', 'timed_out', 'budget_exceeded'],
      script: ['succeeded', 'failed', 'timed_out', 'budget_exceeded', 'partial'],
      command: ['succeeded', 'failed', 'timed_out', 'unknown', 'budget_exceeded', 'partial'],
      http: ['succeeded', 'failed', 'timed_out', 'budget_exceeded'],
      human: ['succeeded', 'rejected', 'expired'],
      wait: ['succeeded'],
      event: ['succeeded', 'expired'],
      router: ['succeeded'],
      join: ['succeeded', 'failed'],
      map: ['succeeded', 'failed'],
      subworkflow: ['succeeded', 'failed'],
      transform: ['succeeded', 'failed'],
      end: [],
    });
  });
});
