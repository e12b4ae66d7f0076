// The human line format other tools grep: FILE: WHERE: CODE: MESSAGE (HINT) [warning].
import { describe, expect, it } from 'vitest';
import { formatDiagnosticLine, formatFileSummary } from '../../engine/cli/format-diagnostic.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';

const d = (extra: Partial<Diagnostic>): Diagnostic => ({
  code: 'some-code',
  severity: 'error',
  path: '$',
  message: 'what is wrong',
  hint: 'how to fix it',
  ...extra,
});

describe('formatDiagnosticLine', () => {
  it.each([
    [d({ stepId: 'fetch', edgeId: 'e1' }), 'f.weft.json: fetch: some-code: what is wrong (how to fix it)'],
    [d({ edgeId: 'e1' }), 'f.weft.json: edge e1: some-code: what is wrong (how to fix it)'],
    [d({}), 'f.weft.json: workflow: some-code: what is wrong (how to fix it)'],
    [d({ severity: 'warning', stepId: 's' }), 'f.weft.json: s: some-code: what is wrong (how to fix it) [warning]'],
  ])('%#', (diagnostic, line) => {
    expect(formatDiagnosticLine('f.weft.json', diagnostic)).toBe(line);
  });
});

describe('formatFileSummary', () => {
  const warning = d({ severity: 'warning' });
  it.each([
    [[], 'f: valid'],
    [[warning], 'f: valid (1 warning)'],
    [[warning, warning], 'f: valid (2 warnings)'],
    [[d({})], 'f: 1 error'],
    [[d({}), d({}), d({}), warning], 'f: 3 errors, 1 warning'],
  ])('%#', (diagnostics, summary) => {
    expect(formatFileSummary('f', diagnostics)).toBe(summary);
  });
});
