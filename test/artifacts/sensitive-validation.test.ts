// The validator's checks of sensitive values (shared/validator/checks/sensitive-fields.ts), as a
// table: a mark that is not true or sits where the engine does not look, and readsSensitive on a
// kind that would log what it reads, are errors at their JSON path; the documented uses pass.
import { describe, expect, it } from 'vitest';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { validateWorkflow } from '../../shared/validator/validate-workflow.ts';
import { readsSensitive, sensitivePaths } from '../../shared/artifacts/sensitive-fields.ts';

const flow = (first: Record<string, unknown>, second: Record<string, unknown> = {}) => ({
  format: 'weft/v1', id: 'f', version: 1, name: 'F',
  steps: [{ id: 'a', kind: 'transform', config: { expression: '{"k": "v"}' }, ...first }, { id: 'b', kind: 'transform', config: { expression: '{}' }, ...second }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'a', to: 'b' }, { id: 'e2', from: 'b', to: 'done' }],
});

const codes = (wf: unknown) => validateWorkflow(Workflow.parse(wf)).filter((d) => d.severity === 'error').map((d) => ({ code: d.code, path: d.path }));

describe('sensitive fields in the validator', () => {
  it.each([
    ['a marked property', flow({ output: { type: 'object', properties: { k: { type: 'string', 'x-weft-sensitive': true } } } }, { readsSensitive: true }), []],
    ['marked array items', flow({ output: { type: 'array', items: { 'x-weft-sensitive': true } } }), []],
    ['a mark that is not a boolean', flow({ output: { type: 'object', properties: { k: { 'x-weft-sensitive': 'yes' } } } }), [{ code: 'invalid-sensitive-mark', path: '$.steps[0].output.properties.k["x-weft-sensitive"]' }]],
    ['a mark under anyOf', flow({ output: { anyOf: [{ type: 'object', properties: { k: { 'x-weft-sensitive': true } } }] } }), [{ code: 'invalid-sensitive-mark', path: '$.steps[0].output.anyOf[0].properties.k["x-weft-sensitive"]' }]],
  ])('%s', (_what, wf, want) => {
    expect(codes(wf).filter((c) => c.code.includes('sensitive'))).toEqual(want);
  });

  it('refuses readsSensitive on a step that would log what it reads', () => {
    const wf = { ...flow({}), steps: [{ id: 'a', kind: 'human', readsSensitive: true, config: { task: 'approve', title: 'T' }, deadlineMs: 1000 }, { id: 'b', kind: 'transform', config: { expression: '{}' } }, { id: 'done', kind: 'end' }] };
    expect(codes(wf).filter((c) => c.code === 'reads-sensitive-kind')).toEqual([{ code: 'reads-sensitive-kind', path: '$.steps[0].readsSensitive' }]);
  });

  it('finds which reads reach a sensitive place', () => {
    const paths = sensitivePaths({ type: 'object', properties: { card: { type: 'object', properties: { number: { 'x-weft-sensitive': true } } }, rows: { items: { properties: { pin: { 'x-weft-sensitive': true } } } } } });
    expect(readsSensitive(paths, ['card', 'number'])).toBe(true);
    expect(readsSensitive(paths, ['card'])).toBe(true);
    expect(readsSensitive(paths, [])).toBe(true);
    expect(readsSensitive(paths, ['card', 'holder'])).toBe(false);
    expect(readsSensitive(paths, ['rows', 'pin'])).toBe(true);
    expect(readsSensitive(paths, ['rows', 'n'])).toBe(false);
  });
});
