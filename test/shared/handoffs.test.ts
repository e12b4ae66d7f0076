// The data-handoff analysis (issue 12, item 4): what each step reads and from where, flagged
// exactly where the validator reports a finding, with the branch a missing source is skipped on,
// and fixes after which the validator's finding is gone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { formatPath } from '../../shared/validator/diagnostic.ts';
import { expressionSitesOf } from '../../shared/validator/expressions/expression-sites.ts';
import type { AstNode } from '../../shared/validator/expressions/jsonata-ast.ts';
import { referencesOf } from '../../shared/validator/expressions/references.ts';
import { WorkflowGraph } from '../../shared/validator/graph/workflow-graph.ts';
import { analyzeHandoffs } from '../../shared/validator/handoffs/analyze-handoffs.ts';
import { applyHandoffFix, parsePath } from '../../shared/validator/handoffs/apply-fix.ts';
import type { HandoffFix, HandoffRead } from '../../shared/validator/handoffs/handoff-types.ts';
import { validateDefinitionText, validateWorkflow } from '../../shared/validator/validate-workflow.ts';

const root = join(import.meta.dirname, '..', '..');
const load = (file: string): Workflow => {
  const { workflow, diagnostics } = validateDefinitionText(readFileSync(join(root, file), 'utf8'));
  if (!workflow) throw new Error(`${file}: ${JSON.stringify(diagnostics)}`);
  return workflow;
};
const clone = (w: Workflow): Workflow => JSON.parse(JSON.stringify(w)) as Workflow;
const stepOf = (w: Workflow, id: string) => w.steps.find((s) => s.id === id) as Record<string, unknown> & { config: Record<string, unknown> };

/** The findings the validator makes about reads (the codes a handoff problem carries). */
const READ_CODES = new Set(['missing-dependency', 'unguarded-loop-read', 'undeclared-field', 'unknown-step-reference']);
const key = (code: string, path: string, position: number | undefined) => `${code} ${path} @${position ?? '-'}`;

/** The validator's read findings about step `id`, as code + path + position. */
const validatorFindings = (w: Workflow, id: string) =>
  validateWorkflow(w).filter((d) => d.stepId === id && READ_CODES.has(d.code)).map((d) => key(d.code, d.path, d.position)).sort();
const flaggedReads = (reads: readonly HandoffRead[]) =>
  reads.filter((r) => r.problem).map((r) => key(r.problem?.code ?? '', r.site, r.position)).sort();

/**
 * The reads of step `id`, found apart from the handoff code: each expression site of the step
 * parsed by jsonata itself (no shape cache) and walked for references.
 */
function referencesAt(w: Workflow, id: string): string[] {
  const graph = new WorkflowGraph(w);
  const v = graph.indexOf.get(id) as number;
  return expressionSitesOf(graph, v).flatMap((site) => {
    const path = site.edge ? ['edges', site.edge.fileIndex, ...site.path] : ['steps', graph.stepFileIndex[v] as number, ...site.path];
    return referencesOf(jsonata(site.text).ast() as AstNode).map((r) => `${formatPath(path)} @${site.offset + (r.position ?? 0)} ${[r.root, ...r.names].join('.')}`);
  }).sort();
}
const readKeys = (reads: readonly HandoffRead[]) => reads.map((r) => `${r.site} @${r.position ?? 0} ${r.field}`).sort();

const fixOf = (read: HandoffRead | undefined, kind: HandoffFix['kind']): HandoffFix => {
  const fix = read?.fixes.find((f) => f.kind === kind);
  if (!fix) throw new Error(`no ${kind} fix on ${JSON.stringify(read)}`);
  return fix;
};

describe('a field only one branch produces', () => {
  const bad = load('test/fixtures/handoffs/one-branch.weft.json');
  const clean = load('test/fixtures/handoffs/one-branch-clean.weft.json');

  it('is flagged at the reading field, naming the branch that skips its source', () => {
    const reads = analyzeHandoffs(bad).steps['report'] ?? [];
    const read = reads.find((r) => r.field === 'steps.full_price.output.total');
    expect(read).toMatchObject({
      site: '$.steps[4].config.expression',
      source: { kind: 'step', stepId: 'full_price' },
      guaranteed: false,
      guarded: false,
      declared: true,
      problem: { code: 'missing-dependency', branches: ['quick_estimate'], edges: ['small'] },
    });
    // The other read of the step is fine.
    expect(reads.find((r) => r.field === 'input.orderId')).toMatchObject({ source: { kind: 'input' }, guaranteed: true, declared: true });
    expect(reads.find((r) => r.field === 'input.orderId')?.problem).toBeUndefined();
    expect(flaggedReads(reads)).toEqual(validatorFindings(bad, 'report'));
    expect(flaggedReads(reads)).toHaveLength(1);
  });

  it('is not flagged on the clean twin, which reads each branch from the join behind $exists', () => {
    const h = analyzeHandoffs(clean);
    const reads = h.steps['report'] ?? [];
    expect(Object.values(h.steps).flat().filter((r) => r.problem)).toEqual([]);
    expect(validateWorkflow(clean).filter((d) => d.severity === 'error')).toEqual([]);
    expect(reads.map((r) => [r.field, r.guaranteed, r.guarded])).toEqual([
      ['input.orderId', true, false],
      ['steps.merge.output.full_price', true, true],
      ['steps.merge.output.full_price.total', true, true],
      ['steps.merge.output.quick_estimate.estimate', true, false],
    ]);
  });

  it('names the step on the other branch when branches run side by side', () => {
    // start → a, start → b, b → reader: a may still be running when reader starts.
    const w = clone(bad);
    w.edges = [
      { id: 'to_full', from: 'route', to: 'full_price' },
      { id: 'to_quick', from: 'route', to: 'quick_estimate' },
      { id: 'quick_to_report', from: 'quick_estimate', to: 'report' },
      { id: 'full_done', from: 'full_price', to: 'done' },
      { id: 'finish', from: 'report', to: 'done' },
    ];
    w.steps = w.steps.filter((s) => s.id !== 'merge');
    const read = analyzeHandoffs(w).steps['report']?.find((r) => r.field === 'steps.full_price.output.total');
    expect(read?.problem).toMatchObject({ code: 'missing-dependency', branches: ['quick_estimate'], edges: ['to_quick'] });
    expect(read?.fixes).toEqual([]); // no join carries it: no rewrite the validator would accept
  });
});

describe('each example: the handoff list of one step equals what the validator reports', () => {
  // One step per example with reads from several sources (input, steps, own output, a join, a loop).
  const chosen: [file: string, step: string, sources: string[]][] = [
    ['agent-escalation', 'approve', ['input', 'propose']],
    ['order-payment', 'fulfil', ['await_payment', 'input']],
    ['parallel-research', 'synthesize', ['gather', 'input', 'synthesize']],
    ['record-update', 'verify', ['input', 'validate', 'verify']],
    ['research-review', 'redraft', ['draft', 'feedback', 'redraft', 'research']],
    ['trip-saga', 'itinerary', ['book_car', 'book_flight', 'book_hotel', 'input']],
  ];
  const sourceName = (r: HandoffRead) => (r.source.kind === 'step' ? r.source.stepId : r.source.kind);

  describe.each(chosen)('%s, step %s', (name, id, sources) => {
    const w = load(`examples/${name}.weft.json`);

    it('lists every reference of its expressions, from the expected sources, and nothing flagged', () => {
      const reads = analyzeHandoffs(w).steps[id] ?? [];
      expect(reads.length).toBeGreaterThan(2);
      expect(readKeys(reads)).toEqual(referencesAt(w, id));
      expect([...new Set(reads.map(sourceName))].sort()).toEqual(sources);
      expect(flaggedReads(reads)).toEqual(validatorFindings(w, id));
      expect(flaggedReads(reads)).toEqual([]);
    });

    it('flags exactly what the validator reports once the step reads a later step, an unknown input and an undeclared field', () => {
      const broken = clone(w);
      const step = stepOf(broken, id);
      const later = broken.steps.find((s) => s.kind === 'end')?.id;
      const declared = w.steps.find((s) => s.output !== undefined && s.id !== id)?.id;
      step['input'] = `{ "was": ${typeof step['input'] === 'string' ? `(${step['input']})` : 'null'}, "later": steps.${later}.output, "nope": input.no_such_field, "odd": steps.${declared}.output.no_such_field, "ghost": steps.ghost.output }`;
      const reads = analyzeHandoffs(broken).steps[id] ?? [];
      const flagged = flaggedReads(reads);
      expect(flagged).toEqual(validatorFindings(broken, id));
      expect(new Set(reads.filter((r) => r.problem).map((r) => r.problem?.code))).toEqual(new Set(['missing-dependency', 'undeclared-field', 'unknown-step-reference']));
      expect(readKeys(reads)).toEqual(referencesAt(broken, id));
    });
  });
});

describe('focus on one step (what a run\'s step detail asks for)', () => {
  it.each(['agent-escalation', 'order-payment', 'parallel-research', 'record-update', 'research-review', 'trip-saga'])('%s: each step\'s focused list equals its list in the whole analysis, and nothing else is analysed', (name) => {
    const w = load(`examples/${name}.weft.json`);
    const whole = analyzeHandoffs(w);
    for (const step of w.steps) {
      const focused = analyzeHandoffs(w, undefined, { reader: step.id });
      expect(focused.steps[step.id]).toEqual(whole.steps[step.id]);
      expect(Object.entries(focused.steps).filter(([id, reads]) => id !== step.id && reads.length > 0)).toEqual([]);
      expect(focused.workflowOutput).toEqual([]);
      // Along the edges, only what flows into the step or out of it by its own conditions.
      for (const [edgeId, flows] of Object.entries(focused.edges)) {
        const edge = w.edges.find((e) => e.id === edgeId);
        if (flows.length > 0) expect(edge?.to === step.id || edge?.from === step.id).toBe(true);
        expect(flows.every((f) => (whole.edges[edgeId] ?? []).some((g) => JSON.stringify(g) === JSON.stringify(f)))).toBe(true);
      }
    }
  });

  it('a focus on a step the workflow does not have analyses nothing', () => {
    const focused = analyzeHandoffs(load('examples/research-review.weft.json'), undefined, { reader: 'no_such_step' });
    expect(Object.values(focused.steps).flat()).toEqual([]);
    expect(Object.values(focused.edges).flat()).toEqual([]);
    expect(focused.workflowOutput).toEqual([]);
  });
});

describe('edges: the fields that flow along them', () => {
  it('an edge into a step carries what the step reads of the from-step and of the steps before it', () => {
    const w = load('examples/trip-saga.weft.json');
    const flows = analyzeHandoffs(w).edges['trip_confirmed'] ?? [];
    expect(flows.map((f) => [f.field, f.readBy, f.carried, f.guaranteed])).toEqual([
      ['steps.book_flight.output.body.bookingId', 'itinerary', true, true],
      ['steps.book_hotel.output.body.bookingId', 'itinerary', true, true],
      ['steps.book_car.output.body.bookingId', 'itinerary', true, true],
    ]);
    // The failure edges carry nothing: trip_failed reads nothing.
    expect(analyzeHandoffs(w).edges['flight_failed']).toEqual([]);
  });

  it('an edge condition reads the from-step\'s output; the run input does not flow along an edge', () => {
    const w = load('examples/order-payment.weft.json');
    const flows = analyzeHandoffs(w).edges['payment_covers_total'] ?? [];
    expect(flows.filter((f) => f.readBy === 'when').map((f) => [f.field, f.carried])).toEqual([
      ['output.amountCents', false],
      ['output.currency', false],
    ]);
    expect(flows.every((f) => f.source.kind === 'step')).toBe(true);
    expect(flows.filter((f) => f.readBy === 'fulfil').map((f) => f.field)).toEqual(['steps.await_payment.output.data.paymentId']);
  });

  it('a read of a source that may not have run flows along the edge, marked not guaranteed', () => {
    const flows = analyzeHandoffs(load('test/fixtures/handoffs/one-branch.weft.json')).edges['to_report'] ?? [];
    expect(flows.map((f) => [f.field, f.carried, f.guaranteed, f.problem?.code])).toEqual([
      ['steps.full_price.output.total', true, false, 'missing-dependency'],
    ]);
  });

  it('a loop edge carries what the loop head reads of the loop tail', () => {
    const flows = analyzeHandoffs(load('examples/research-review.weft.json')).edges['rereview_rejected'] ?? [];
    expect(flows.map((f) => [f.field, f.readBy, f.carried, f.guarded])).toEqual([
      ['steps.rereview.output', 'feedback', false, true],
      ['steps.rereview.output.reason', 'feedback', false, true],
      ['steps.rereview.output.by', 'feedback', false, true],
      // review finished before rereview: its output is carried through the loop edge too.
      ['steps.review.output.reason', 'feedback', true, false],
      ['steps.review.output.by', 'feedback', true, false],
    ]);
  });
});

describe('fixes: after each, the validator\'s finding for that read is gone', () => {
  const errorsAt = (w: Workflow, id: string) => validatorFindings(w, id);

  it('guard: a branch read goes through the join that carries it', () => {
    const bad = load('test/fixtures/handoffs/one-branch.weft.json');
    const read = analyzeHandoffs(bad).steps['report']?.find((r) => r.problem);
    const fix = fixOf(read, 'guard');
    expect(fix).toMatchObject({ via: 'merge', after: expect.stringContaining('steps.merge.output.full_price.total') });
    const fixed = applyHandoffFix(bad, read?.site ?? '', fix);
    expect(errorsAt(fixed, 'report')).toEqual([]);
    expect(validateWorkflow(fixed).filter((d) => d.severity === 'error')).toEqual([]);
    expect(bad.steps[4]).not.toBe(fixed.steps[4]); // the input document is left as it was
    expect(bad.steps[0]).toBe(fixed.steps[0]); // untouched steps keep their identity
  });

  it('guard: a read back through a loop, in an expression and in a template placeholder', () => {
    const w = load('examples/research-review.weft.json');
    stepOf(w, 'feedback').config['expression'] = '{ "round": $activation, "reason": steps.rereview.output.reason }';
    stepOf(w, 'redraft').config['prompt'] = 'Revise {{ steps.draft.output.title }}; the objection: {{ steps.rereview.output.reason }}.';
    for (const id of ['feedback', 'redraft']) {
      expect(errorsAt(w, id)).toHaveLength(1);
      const read = analyzeHandoffs(w).steps[id]?.find((r) => r.problem);
      expect(read?.problem).toMatchObject({ code: 'unguarded-loop-read', branches: ['rereview'], edges: ['rereview_rejected'] });
      const fixed = applyHandoffFix(w, read?.site ?? '', fixOf(read, 'guard'));
      expect(errorsAt(fixed, id)).toEqual([]);
      const after = analyzeHandoffs(fixed).steps[id]?.find((r) => r.field === 'steps.rereview.output.reason');
      expect(after).toMatchObject({ guarded: true, guaranteed: false });
      expect(after?.problem).toBeUndefined();
    }
    const fixedRedraft = applyHandoffFix(w, '$.steps[4].config.prompt', fixOf(analyzeHandoffs(w).steps['redraft']?.find((r) => r.problem), 'guard'));
    expect(stepOf(fixedRedraft, 'redraft').config['prompt']).toBe(
      'Revise {{ steps.draft.output.title }}; the objection: {{ $exists(steps.rereview.output) ? (steps.rereview.output.reason) : null }}.',
    );
  });

  it('declare: a field of a step\'s output, nested, and one read as output in an accept rule', () => {
    const w = load('test/fixtures/handoffs/one-branch-clean.weft.json');
    stepOf(w, 'full_price')['accept'] = 'output.currency = "EUR"';
    stepOf(w, 'report').config['expression'] = 'steps.merge.output.full_price.total & steps.route.output.amount';
    stepOf(w, 'quick_estimate').config['expression'] = '{"estimate": input.amount, "m": input.meta.source}';
    const step = stepOf(w, 'full_price');
    expect(errorsAt(w, 'full_price')).toHaveLength(1);
    const read = analyzeHandoffs(w).steps['full_price']?.find((r) => r.problem);
    expect(read).toMatchObject({ field: 'output.currency', declared: false, problem: { code: 'undeclared-field' } });
    const fix = fixOf(read, 'declare');
    expect(fix).toMatchObject({ target: { kind: 'step', stepId: 'full_price' }, names: ['currency'] });
    const fixed = applyHandoffFix(w, read?.site ?? '', fix);
    expect(errorsAt(fixed, 'full_price')).toEqual([]);
    expect(stepOf(fixed, 'full_price')['output']).toEqual({
      ...(step['output'] as object),
      properties: { ...((step['output'] as { properties: object }).properties), currency: {} },
    });
  });

  it('declare: a nested field of the run input, and of a step output below an array', () => {
    const w = load('test/fixtures/handoffs/one-branch-clean.weft.json');
    stepOf(w, 'quick_estimate').config['expression'] = '{"estimate": input.amount, "m": input.meta.source}';
    const read = analyzeHandoffs(w).steps['quick_estimate']?.find((r) => r.problem);
    const fix = fixOf(read, 'declare');
    expect(fix).toMatchObject({ target: { kind: 'input' }, names: ['meta'] });
    const fixed = applyHandoffFix(w, read?.site ?? '', fix);
    expect(errorsAt(fixed, 'quick_estimate')).toEqual([]);
    expect((fixed.input as { properties: Record<string, unknown> }).properties['meta']).toEqual({});

    const arr = load('test/fixtures/handoffs/one-branch-clean.weft.json');
    stepOf(arr, 'full_price')['output'] = { type: 'object', properties: { lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } } } };
    stepOf(arr, 'full_price').config['expression'] = '{"lines": [{"sku": "a"}]}';
    stepOf(arr, 'report').config['expression'] = 'steps.merge.output.full_price.lines.sku & steps.merge.output.full_price.lines.price';
    // Read through the join: the join has no schema of its own, so there is nothing to declare in.
    expect(analyzeHandoffs(arr).steps['report']?.find((r) => r.problem)?.fixes).toEqual([]);
    stepOf(arr, 'full_price')['accept'] = '$count(output.lines.price) > 0';
    const own = analyzeHandoffs(arr).steps['full_price']?.find((r) => r.problem);
    const next = applyHandoffFix(arr, own?.site ?? '', fixOf(own, 'declare'));
    expect(errorsAt(next, 'full_price')).toEqual([]);
    expect(stepOf(next, 'full_price')['output']).toEqual({
      type: 'object',
      properties: { lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, price: {} } } } },
    });
  });

  it('refuses a guard fix once the expression has changed, with a one-line reason', () => {
    const bad = load('test/fixtures/handoffs/one-branch.weft.json');
    const read = analyzeHandoffs(bad).steps['report']?.find((r) => r.problem);
    const fix = fixOf(read, 'guard');
    stepOf(bad, 'report').config['expression'] = 'steps.full_price.output.lines';
    expect(() => applyHandoffFix(bad, read?.site ?? '', fix)).toThrow(/expression at \$\.steps\[4\]\.config\.expression changed since the fix was offered/);
  });
});

describe('sites', () => {
  it('a site path reads back to the segments it was formatted from', () => {
    for (const segs of [['steps', 4, 'config', 'headers', 'Idempotency-Key'], ['edges', 12, 'when'], ['output']]) {
      expect(parsePath(formatPath(segs))).toEqual(segs);
    }
    expect(() => parsePath('steps[1]')).toThrow(/should start with \$/);
  });

  it('the workflow output lists its reads; a step on a branch not taken is not guaranteed there, and not flagged', () => {
    // rereview and redraft run only after a rejection; draft runs before every end step.
    const w = load('examples/research-review.weft.json');
    const reads = analyzeHandoffs(w).workflowOutput;
    expect(reads.map((r) => [r.site, r.field, r.guaranteed, r.problem])).toEqual([
      ['$.output', 'steps.rereview.output', false, undefined],
      ['$.output', 'steps.redraft.output', false, undefined],
      ['$.output', 'steps.draft.output', true, undefined],
    ]);
  });
});
