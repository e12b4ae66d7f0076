// What a join's branch guarantees to readers after it (issue 9, defect 3): all of it by default,
// only what ran before it when the join ignores failed branches, nothing when it ignores skipped
// ones; the same for the named branches of a subset join. Each row validates a small workflow
// whose `report` step reads a branch (`quote_a`) or a step before it (`prep_a`) after the join.
import { describe, expect, it } from 'vitest';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

const price = { type: 'object', required: ['price'], properties: { price: { type: 'number' } } };
const workflow = (join: Record<string, unknown>, reads: string) => JSON.stringify({
  format: 'weft/v1', id: 'guarantee', version: 1, name: 'Guarantee',
  steps: [
    { id: 'start', kind: 'transform', config: { expression: '1' } },
    { id: 'prep_a', kind: 'command', config: { argv: ['prep'] }, output: price },
    { id: 'quote_a', kind: 'command', config: { argv: ['quote', 'a'] }, output: price },
    { id: 'quote_b', kind: 'command', config: { argv: ['quote', 'b'] }, output: price },
    { id: 'both', kind: 'join', config: join },
    { id: 'report', kind: 'transform', config: { expression: `steps.${reads}.output.price` } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'prep_a' },
    { id: 'e2', from: 'prep_a', to: 'quote_a' },
    { id: 'e3', from: 'start', to: 'quote_b' },
    { id: 'e4', from: 'quote_a', to: 'both' },
    { id: 'e5', from: 'quote_b', to: 'both' },
    { id: 'e6', from: 'both', to: 'report' },
    { id: 'e7', from: 'report', to: 'done' },
  ],
});
const missing = (join: Record<string, unknown>, reads: string): boolean =>
  validateDefinitionText(workflow(join, reads)).diagnostics.some((d) => d.code === 'missing-dependency' && d.stepId === 'report');

describe('what a joined branch guarantees after the join', () => {
  it.each([
    ['all, default', { mode: 'all' }, false, false],
    ['all, failed branches ignored', { mode: 'all', onFailedBranch: 'ignore' }, true, false],
    ['all, skipped branches ignored', { mode: 'all', onCancelledBranch: 'ignore' }, true, true],
    ['subset naming quote_a', { mode: 'subset', branches: ['quote_a'] }, false, false],
    ['subset naming quote_a, failed ignored', { mode: 'subset', branches: ['quote_a'], onFailedBranch: 'ignore' }, true, false],
    ['subset naming quote_b only', { mode: 'subset', branches: ['quote_b'] }, true, true],
    ['atLeast 1', { mode: 'atLeast', count: 1 }, true, true],
  ])('%s: reading the branch, or the step before it, after the join', (_name, join, branchMissing, beforeMissing) => {
    expect(missing(join, 'quote_a')).toBe(branchMissing);
    expect(missing(join, 'prep_a')).toBe(beforeMissing);
    expect(missing(join, 'start')).toBe(false);
  });
});
