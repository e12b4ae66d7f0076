// The renderer's table of step kinds (renderer/kinds/kind-views.ts): every kind has a template
// the format accepts for that kind, a form whose fields the schema has (field-specs.test.ts checks
// each path), and the canvas family its node is coloured and shaped by (graph.css).
import { describe, expect, it } from 'vitest';
import { STEP_KINDS } from '../../shared/definition/names.ts';
import { KIND_SPECS } from '../../shared/definition/step-kinds.ts';
import { Step } from '../../shared/definition/workflow-schema.ts';
import { configFields, KIND_VIEWS, newStep, nodeFamily } from '../../renderer/kinds/kind-views.ts';

describe('kind views', () => {
  it.each(STEP_KINDS)('%s: its template is a valid step of that kind, with the id given', (kind) => {
    const step = newStep(kind, 'some_id');
    expect(step).toMatchObject({ id: 'some_id', kind });
    expect(Step.safeParse(step).success).toBe(true);
    expect(KIND_VIEWS[kind].blurb.length).toBeGreaterThan(5);
  });

  it('draws each kind in its palette family, and a kind with no outcomes as an end', () => {
    expect(Object.fromEntries(STEP_KINDS.map((k) => [k, nodeFamily(k)]))).toEqual({
      agent: 'work',
      script: 'work',
      command: 'work',
      http: 'work',
      transform: 'data',
      human: 'people',
      wait: 'time',
      event: 'time',
      router: 'flow',
      join: 'flow',
      map: 'nested',
      subworkflow: 'nested',
      end: 'end',
    });
    expect(KIND_SPECS.end.family).toBe('flow');
  });

  it('says why a kind has nothing to configure instead of showing an empty form', () => {
    expect(STEP_KINDS.filter((k) => configFields(k).length === 0)).toEqual(['router']);
    expect(KIND_VIEWS.router.fields).toEqual({ none: expect.stringContaining('A router has no config') });
  });
});
