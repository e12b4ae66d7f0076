// Each validator check has a fixture that triggers it and a near-identical one that does not.
// test/fixtures/validator/cases.json lists them: name → the code and severity expected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'validator');
const cases = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Record<string, { code: string; severity: 'error' | 'warning' }>;
const load = (file: string) => validateDefinitionText(readFileSync(join(dir, file), 'utf8')).diagnostics;

describe('validator fixtures', () => {
  it('covers every check the issue names', () => {
    const codes = new Set(Object.values(cases).map((c) => c.code));
    for (const code of [
      'duplicate-step-id', 'duplicate-edge-id', 'unknown-step-reference', 'unreachable-step', 'no-reachable-terminal',
      'unreachable-terminal', 'missing-dependency', 'undeclared-field', 'impossible-join', 'router-without-default',
      'duplicate-condition', 'non-boolean-condition', 'unsafe-retry', 'unhandled-failure', 'unhandled-unknown',
      'absent-compensation', 'unbounded-wait', 'unbounded-cycle', 'expression-syntax', 'invalid-json-schema',
    ]) expect(codes, code).toContain(code);
  });

  describe.each(Object.entries(cases))('%s', (name, { code, severity }) => {
    it(`the bad fixture reports ${code} as ${severity}, naming a step or edge and a path`, () => {
      const hits = load(`${name}.bad.weft.json`).filter((d) => d.code === code);
      expect(hits.length).toBeGreaterThan(0);
      for (const d of hits) {
        expect(d.severity).toBe(severity);
        expect(d.path).toMatch(/^\$/);
        expect(d.message.length).toBeGreaterThan(10);
        expect(d.hint.length).toBeGreaterThan(10);
      }
      if (!['no-reachable-terminal', 'no-entry-step'].includes(code)) {
        expect(hits.some((d) => d.stepId !== undefined || d.edgeId !== undefined)).toBe(true);
      }
    });

    it('the near-identical good fixture does not, and has no errors at all', () => {
      const ds = load(`${name}.good.weft.json`);
      expect(ds.filter((d) => d.code === code)).toEqual([]);
      expect(ds.filter((d) => d.severity === 'error')).toEqual([]);
    });
  });
});
