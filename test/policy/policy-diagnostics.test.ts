// Each policy finding has a fixture that breaks the rule and a near-identical clean twin
// (test/fixtures/policy: NAME.bad.weft.json / NAME.good.weft.json, all under one weft.policy.json),
// plus the path check's harder cases: loops, compensations and edges an approval leaves on `any`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { policyDiagnostics, POLICY_CODES } from '../../shared/policy/check-policy.ts';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import { selects } from '../../shared/policy/selects.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'policy');
const parsed = parsePolicyText(readFileSync(join(dir, 'weft.policy.json'), 'utf8'));
if (!parsed.ok) throw new Error(`the fixtures' policy does not parse: ${JSON.stringify(parsed.diagnostics)}`);
const policy = parsed.policy;
const load = (file: string): Workflow => {
  const r = validateDefinitionText(readFileSync(join(dir, file), 'utf8'));
  if (r.workflow === undefined) throw new Error(`${file} does not parse`);
  expect(r.diagnostics.filter((d) => d.severity === 'error'), `${file} is a valid workflow`).toEqual([]);
  return r.workflow;
};
const codes = [...new Set(readdirSync(dir).filter((f) => f.endsWith('.bad.weft.json')).map((f) => f.replace('.bad.weft.json', '')))];

describe('policy fixtures', () => {
  it('cover every policy finding', () => {
    expect(codes.sort()).toEqual(Object.values(POLICY_CODES).sort());
  });

  describe.each(codes)('%s', (code) => {
    it('the bad fixture breaks exactly that rule, on the step, naming the rule', () => {
      const ds = policyDiagnostics(load(`${code}.bad.weft.json`), policy);
      expect(ds.map((d) => d.code)).toEqual([code]);
      const d = ds[0];
      expect(d?.severity).toBe('error');
      expect(d?.stepId).toEqual(expect.any(String));
      expect(d?.path).toMatch(/^\$\.steps\[\d+\]/);
      expect(d?.message).toMatch(/^policy "[a-z0-9-]+": /);
      expect(d?.message).toContain(`"${d?.stepId}"`);
      expect(d?.hint.length).toBeGreaterThan(10);
    });

    it('the clean twin breaks nothing', () => {
      expect(policyDiagnostics(load(`${code}.good.weft.json`), policy)).toEqual([]);
    });
  });

  it('without a policy, nothing is found', () => {
    expect(policyDiagnostics(load('policy_approval_missing.bad.weft.json'), undefined)).toEqual([]);
  });
});

describe('approval paths', () => {
  const base = load('policy_approval_missing.good.weft.json');
  const approvals: Policy = { format: 'weft-policy/v1', approvals: [{ id: 'payments-approved', select: { tags: ['payment'] } }] };
  const withEdges = (edges: Workflow['edges'], steps: Workflow['steps'] = base.steps): Workflow => ({ ...base, steps, edges });

  it('shows the path that passes no approval, with the approval passed on another outcome', () => {
    const wf = withEdges([...base.edges.filter((e) => e.id !== 'e2'), { id: 'any', from: 'approve', to: 'charge', on: 'any' as const }]);
    const [d] = policyDiagnostics(wf, approvals);
    expect(d?.message).toBe('policy "payments-approved": step "charge" can be reached without a person\'s approval: start → approve (not approved) → charge passes no approval');
  });

  it('a loop back past the approval keeps the step behind it', () => {
    const wf = withEdges([...base.edges, { id: 'again', from: 'ship', to: 'start', on: 'failed' as const, maxTraversals: 2 }].filter((e) => e.id !== 'e7'));
    expect(policyDiagnostics(wf, approvals)).toEqual([]);
  });

  it('a loop that enters after the approval from an ungated step is found', () => {
    const wf = withEdges([...base.edges, { id: 'back', from: 'start', to: 'charge', on: 'failed' as const }]);
    expect(policyDiagnostics(wf, approvals).map((d) => d.stepId)).toEqual(['charge']);
  });

  it('a compensation counts as reached from the step it offsets', () => {
    const steps = base.steps.map((s) => (s.id === 'ship' ? { ...s, compensation: 'refund' } : s));
    const refund = { id: 'refund', kind: 'transform', tags: ['payment'], config: { expression: 'input' } } as Workflow['steps'][number];
    expect(policyDiagnostics(withEdges(base.edges, [...steps, refund]), approvals)).toEqual([]);
    const early = steps.map((s) => (s.id === 'start' ? { ...s, compensation: 'refund' } : s));
    expect(policyDiagnostics(withEdges(base.edges, [...early, refund]), approvals).map((d) => d.stepId)).toEqual(['refund']);
  });
});

describe('selectors', () => {
  const charge = { id: 'charge', kind: 'http' as const, effect: 'external' as const, tags: ['payment'] };
  it.each([
    [undefined, true],
    [{ effects: ['external' as const], tags: ['payment'] }, true],
    [{ effects: ['external' as const], tags: ['refund'] }, false],
    [{ tags: ['refund', 'payment'] }, true],
    [{ kinds: ['agent' as const] }, false],
    [{ steps: ['charge'] }, true],
    [{ workflows: ['other'] }, false],
    [{ effects: ['none' as const] }, false],
  ])('%j selects charge: %s', (selector, want) => {
    expect(selects(selector, charge, 'payments')).toBe(want);
  });
  it('a step without effect is "none"', () => {
    expect(selects({ effects: ['none'] }, { id: 'x', kind: 'transform' }, 'w')).toBe(true);
  });
});
