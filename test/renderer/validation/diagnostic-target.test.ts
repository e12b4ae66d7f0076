// Where a diagnostic lands in the editor: tables of JSON paths and ids, then the real validator's
// output on an example with an edit that makes it shape-invalid.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../../shared/validator/diagnostic.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { createValidatorCaches } from '../../../shared/validator/validate-workflow.ts';
import { fieldName, parseJsonPath } from '../../../renderer/editor/validation/json-path.ts';
import { focusSite, locateDiagnostic, targetLabel } from '../../../renderer/editor/validation/diagnostic-target.ts';
import { checkDefinition } from '../../../renderer/editor/validation/check-definition.ts';

const doc = {
  steps: [{ id: 'fetch' }, { id: 'review' }, { id: 'done' }],
  edges: [{ id: 'e1' }, { id: 'e2' }],
};

describe('parseJsonPath', () => {
  it.each<[string, (string | number)[]]>([
    ['$', []],
    ['$.steps', ['steps']],
    ['$.steps[3].config.url', ['steps', 3, 'config', 'url']],
    ['$.edges[1].when', ['edges', 1, 'when']],
    ['$.layout["my step"].x', ['layout', 'my step', 'x']],
    ['$.input.properties["a\\"b"]', ['input', 'properties', 'a"b']],
    ['$.steps[0].output.properties.$id', ['steps', 0, 'output', 'properties', '$id']],
  ])('%s', (path, segments) => {
    expect(parseJsonPath(path)).toEqual(segments);
    // The inverse of the validator's own formatter.
    expect(formatPath(segments)).toBe(path);
  });

  it.each(['', 'steps[0]', '$.', '$[x]', '$.steps[0', '$["open', '$..a', '$.a b'])('refuses %j', (path) => {
    expect(parseJsonPath(path)).toBeNull();
  });

  it('names fields as the inspector does', () => {
    expect(fieldName(['config', 'headers', 0, 'value'])).toBe('config.headers[0].value');
    expect(fieldName(['layout', 'my step'])).toBe('layout["my step"]');
    expect(fieldName([])).toBe('');
  });
});

describe('locateDiagnostic', () => {
  it.each([
    ['a step found by its id', { path: '$.steps[1].config.url', stepId: 'review' }, { kind: 'step', stepId: 'review' }, 'config.url'],
    ['a step found by its index alone (a shape error)', { path: '$.steps[2].input' }, { kind: 'step', stepId: 'done' }, 'input'],
    ['the id wins over a stale index', { path: '$.steps[0].input', stepId: 'review' }, { kind: 'step', stepId: 'review' }, 'input'],
    ['an edge found by its index', { path: '$.edges[1].when' }, { kind: 'edge', edgeId: 'e2' }, 'when'],
    ['an edge expression names its reader step, but the edge is the target', { path: '$.edges[0].when', stepId: 'fetch', edgeId: 'e1' }, { kind: 'edge', edgeId: 'e1' }, 'when'],
    ['a whole edge', { path: '$.edges[0]', edgeId: 'e1' }, { kind: 'edge', edgeId: 'e1' }, null],
    ['an unreachable step (path $.steps)', { path: '$.steps', stepId: 'review' }, { kind: 'step', stepId: 'review' }, null],
    ['a step index past the end, no id', { path: '$.steps[9].id' }, { kind: 'workflow' }, 'steps[9].id'],
    ['the run input schema', { path: '$.input.properties.total' }, { kind: 'workflow' }, 'input.properties.total'],
    ['the workflow output', { path: '$.output' }, { kind: 'workflow' }, 'output'],
    ['a layout entry', { path: '$.layout["gone step"]' }, { kind: 'workflow' }, 'layout["gone step"]'],
    ['the whole file', { path: '$' }, { kind: 'workflow' }, null],
  ])('%s', (_name, d, target, field) => {
    const location = locateDiagnostic(d, doc);
    expect(location.target).toEqual(target);
    expect(location.field).toBe(field);
  });

  it('survives a shape-invalid document (no edges array, ids that are not strings)', () => {
    const broken = { steps: [{ id: 42 }] };
    expect(locateDiagnostic({ path: '$.steps[0].kind' }, broken).target).toEqual({ kind: 'workflow' });
    expect(locateDiagnostic({ path: '$.edges[0].to' }, broken).target).toEqual({ kind: 'workflow' });
    expect(locateDiagnostic({ path: '$.steps[0].kind' }, null).target).toEqual({ kind: 'workflow' });
  });

  it('labels targets for lists', () => {
    expect(targetLabel({ kind: 'step', stepId: 'fetch' })).toBe('fetch');
    expect(targetLabel({ kind: 'edge', edgeId: 'e2' })).toBe('e2');
    expect(targetLabel({ kind: 'workflow' })).toBe('workflow');
  });
});

describe('focusSite', () => {
  it('points at the field where the step is now, not where it was when checked', () => {
    const location = locateDiagnostic({ path: '$.steps[1].config.url', stepId: 'review' }, doc);
    const now = { steps: [{ id: 'new' }, { id: 'fetch' }, { id: 'other' }, { id: 'review' }], edges: [] };
    expect(focusSite(location, now)).toBe('$.steps[3].config.url');
  });

  it('gives the whole element for a finding about it as a whole', () => {
    expect(focusSite(locateDiagnostic({ path: '$.steps', stepId: 'done' }, doc), doc)).toBe('$.steps[2]');
    expect(focusSite(locateDiagnostic({ path: '$.edges[1]', edgeId: 'e2' }, doc), doc)).toBe('$.edges[1]');
  });

  it('keeps workflow-level paths', () => {
    expect(focusSite(locateDiagnostic({ path: '$.input.properties.total' }, doc), doc)).toBe('$.input.properties.total');
  });

  it('is null when the step or edge has been deleted since', () => {
    const location = locateDiagnostic({ path: '$.edges[0].when', edgeId: 'e1' }, doc);
    expect(focusSite(location, { steps: doc.steps, edges: [{ id: 'e2' }] })).toBeNull();
  });
});

describe('the real validator, on a document being edited', () => {
  const example = (): Workflow => JSON.parse(readFileSync('examples/order-payment.weft.json', 'utf8')) as Workflow;
  const caches = createValidatorCaches();

  it('finds the edge of a shape error that carries no ids (an emptied condition)', () => {
    const w = example();
    const index = w.edges.findIndex((e) => e.id === 'payment_covers_total');
    (w.edges[index] as { when?: string }).when = '';
    const ds = checkDefinition(w, caches);
    const d = ds.find((x) => x.path === `$.edges[${index}].when`);
    expect(d?.code).toBe('schema-violation');
    expect(d?.edgeId).toBeUndefined();
    const location = locateDiagnostic(d!, w);
    expect(location.target).toEqual({ kind: 'edge', edgeId: 'payment_covers_total' });
    expect(location.field).toBe('when');
  });

  it('finds the step and field of an expression error', () => {
    const w = example();
    const index = w.steps.findIndex((s) => s.id === 'check_payment');
    (w.steps[index] as { input?: string }).input = 'steps.nowhere.output';
    const ds = checkDefinition(w, caches);
    const d = ds.find((x) => x.code === 'unknown-step-reference' && x.path.startsWith(`$.steps[${index}]`));
    expect(d).toBeDefined();
    const location = locateDiagnostic(d!, w);
    expect(location.target).toEqual({ kind: 'step', stepId: 'check_payment' });
    expect(location.field).toBe('input');
    expect(focusSite(location, w)).toBe(`$.steps[${index}].input`);
  });

  it('finds nothing to report on the example as it is', () => {
    expect(checkDefinition(example(), caches)).toEqual([]);
  });
});
