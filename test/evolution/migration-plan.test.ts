// planMigration on folded models (pure): the refusals that need no engine to set up, and the
// mapping's bad input.
import { describe, expect, it } from 'vitest';
import { planMigration, stepMapping } from '../../engine/evolution/migration-plan.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { newRunModel } from '../../shared/run/run-model.ts';

const v1 = Workflow.parse({
  format: 'weft/v1', id: 'w', version: 1, name: 'W',
  steps: [{ id: 'a', kind: 'transform', config: { expression: '1' } }, { id: 'b', kind: 'transform', config: { expression: '2' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'a', to: 'b' }, { id: 'e2', from: 'b', to: 'done' }],
});
const v2 = Workflow.parse({ ...v1, version: 2, steps: [...v1.steps.filter((s) => s.id !== 'b'), { id: 'b2', kind: 'transform', config: { expression: '2' } }], edges: [{ id: 'e1', from: 'a', to: 'b2' }, { id: 'e2', from: 'b2', to: 'done' }] });

describe('planMigration', () => {
  it('refuses a finished run, a run of another workflow, the same version, and a failing run', () => {
    const m = newRunModel('r1', v1);
    m.state = 'succeeded';
    expect(planMigration(m, v2, 'h').refusals.map((r) => r.code)).toEqual(['finished']);
    m.state = 'running';
    expect(planMigration(m, { ...v2, id: 'other' }, 'h').refusals.map((r) => r.code)).toEqual(['other_workflow']);
    expect(planMigration(m, v1, 'h').refusals.map((r) => r.code)).toEqual(['same_version']);
    m.failing = { stepId: 'a', reason: 'boom' };
    expect(planMigration(m, v2, 'h').refusals.map((r) => [r.code, r.step])).toEqual([['failing', 'a']]);
  });

  it('maps by id, then by --map, and refuses a map naming a step neither version has', () => {
    expect(stepMapping(v1, v2)).toEqual({ a: 'a', done: 'done' });
    expect(stepMapping(v1, v2, { b: 'b2' })).toEqual({ a: 'a', b: 'b2', done: 'done' });
    expect(() => stepMapping(v1, v2, { x: 'b2' })).toThrow(/--map x=b2: "x" is not a step of w v1/);
    expect(() => stepMapping(v1, v2, { b: 'zz' })).toThrow(/--map b=zz: "zz" is not a step of w v2/);
    expect(() => stepMapping(v1, v2, { a: 'b2', b: 'b2' })).toThrow(/two steps of v1 map to "b2"/);
  });

  it('refuses an active step renamed by --map, and a --decide naming no new step', () => {
    const m = newRunModel('r1', v1);
    const b = m.steps.get('b');
    if (b !== undefined) b.state = 'running';
    const p = planMigration(m, v2, 'h', { map: { b: 'b2' }, decide: { a: 'skip' } });
    expect(p.refusals.map((r) => [r.code, r.step])).toEqual([['active_renamed', 'b'], ['bad_decision', 'a']]);
    expect(planMigration(m, v2, 'h').refusals.map((r) => [r.code, r.step])).toEqual([['no_counterpart', 'b']]);
  });
});
