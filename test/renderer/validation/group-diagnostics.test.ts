// Grouping a validation result per step and edge, with the arrays of unchanged steps kept, so
// memoized canvas nodes do not re-render. Fed by the real validator on a generated 1,000-step
// workflow with planted errors.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { createValidatorCaches } from '../../../shared/validator/validate-workflow.ts';
import { generateWorkflow } from '../../bench/generate-workflow.ts';
import { checkDefinition } from '../../../renderer/editor/validation/check-definition.ts';
import { groupDiagnostics, NO_DIAGNOSTICS } from '../../../renderer/editor/validation/group-diagnostics.ts';

const diag = (over: Partial<Diagnostic>): Diagnostic => ({ code: 'c', severity: 'error', path: '$', message: 'm', hint: 'h', ...over });

describe('groupDiagnostics', () => {
  it('puts each diagnostic on exactly one target', () => {
    const doc = { steps: [{ id: 'a' }, { id: 'b' }], edges: [{ id: 'e1' }] };
    const ds = [
      diag({ path: '$.steps[0].input', stepId: 'a' }),
      diag({ path: '$.steps[1].config.expression' }),
      diag({ path: '$.edges[0].when', stepId: 'a', edgeId: 'e1' }),
      diag({ path: '$.output', severity: 'warning' }),
    ];
    const g = groupDiagnostics(ds, doc, NO_DIAGNOSTICS);
    expect(Object.keys(g.byStep).sort()).toEqual(['a', 'b']);
    expect(g.byStep['a']).toEqual([ds[0]]);
    expect(g.byStep['b']).toEqual([ds[1]]);
    expect(g.byEdge['e1']).toEqual([ds[2]]);
    expect(g.workflowLevel).toEqual([ds[3]]);
    expect(g.diagnostics).toEqual(ds);
  });

  it('takes step ids that are Object.prototype names', () => {
    const doc = { steps: [{ id: '__proto__' }, { id: 'constructor' }], edges: [] };
    const g = groupDiagnostics([diag({ path: '$.steps[0].input' }), diag({ path: '$.steps[1].input' })], doc, NO_DIAGNOSTICS);
    expect(g.byStep['__proto__']).toHaveLength(1);
    expect(g.byStep['constructor']).toHaveLength(1);
    expect(Object.keys(g.byStep).sort()).toEqual(['__proto__', 'constructor']);
  });

  it('returns the previous result itself when nothing changed', () => {
    const doc = { steps: [{ id: 'a' }], edges: [] };
    const first = groupDiagnostics([diag({ path: '$.steps[0].input' })], doc, NO_DIAGNOSTICS);
    // A new result from the worker: equal values, new objects.
    const again = groupDiagnostics([diag({ path: '$.steps[0].input' })], structuredClone(doc), first);
    expect(again.diagnostics).toBe(first.diagnostics);
    expect(again.byStep).toBe(first.byStep);
    expect(again.byEdge).toBe(first.byEdge);
    expect(again.workflowLevel).toBe(first.workflowLevel);
  });

  it('on a 1,000-step workflow, keeps the arrays of every step but the edited one', () => {
    const { workflow, planted } = generateWorkflow({ steps: 1_000, seed: 3, flawEvery: 40 });
    const caches = createValidatorCaches();
    const first = groupDiagnostics(checkDefinition(workflow, caches), workflow, NO_DIAGNOSTICS);
    const undeclared = first.diagnostics.filter((d) => d.code === 'undeclared-field');
    expect(planted).toBeGreaterThan(5);
    expect(undeclared).toHaveLength(planted);
    const flawed = Object.keys(first.byStep);
    expect(flawed.length).toBeGreaterThan(5);

    // Break one clean step that reads a source: it gets a problem of its own.
    const edited: Workflow = structuredClone(workflow);
    const victimIndex = edited.steps.findIndex((s) => s.input?.includes('steps.') && first.byStep[s.id] === undefined);
    const victim = edited.steps[victimIndex]!;
    victim.input = 'steps.no_such_step.output';
    const second = groupDiagnostics(checkDefinition(edited, caches), edited, first);

    expect(second.byStep[victim.id]?.map((d) => d.code)).toContain('unknown-step-reference');
    for (const id of flawed) expect(second.byStep[id], id).toBe(first.byStep[id]);
    expect(second.byStep).not.toBe(first.byStep);
    expect(second.diagnostics).toHaveLength(first.diagnostics.length + second.byStep[victim.id]!.length);

    // Fixing it again gives back the first arrays for everyone, and drops the victim's entry.
    const third = groupDiagnostics(checkDefinition(workflow, caches), workflow, second);
    expect(third.byStep[victim.id]).toBeUndefined();
    for (const id of flawed) expect(third.byStep[id]).toBe(first.byStep[id]);
  });
});
