// Revise loops in the validator: a loop's head may read its tail's latest output behind an
// `$exists` guard (on the first pass there is none), `$activation` is known, and an `exhausted`
// edge gives a used-up loop a designed way out.
import { describe, expect, it } from 'vitest';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

interface Loop {
  draftInput?: string;
  edges?: unknown[];
  output?: string;
  extraSteps?: unknown[];
}

/** draft → review; review rejected → draft (loop, bound 2); review exhausted → gave_up. */
function loop({ draftInput = 'input.topic', edges, output, extraSteps = [] }: Loop = {}) {
  return {
    format: 'weft/v1',
    id: 'revise-loop',
    version: 1,
    name: 'Revise loop',
    input: { type: 'object', properties: { topic: { type: 'string' } } },
    ...(output === undefined ? {} : { output }),
    steps: [
      { id: 'draft', kind: 'transform', input: draftInput, config: { expression: '$' } },
      { id: 'review', kind: 'human', config: { task: 'review', title: 'Review' }, deadlineMs: 86_400_000 },
      { id: 'done', kind: 'end' },
      { id: 'gave_up', kind: 'end', config: { status: 'failed' } },
      { id: 'late', kind: 'end', config: { status: 'failed' } },
      ...extraSteps,
    ],
    edges: edges ?? [
      { id: 'to_review', from: 'draft', to: 'review' },
      { id: 'approved', from: 'review', to: 'done' },
      { id: 'redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 2 },
      { id: 'used_up', from: 'review', to: 'gave_up', on: 'exhausted' },
      { id: 'expired', from: 'review', to: 'late', on: 'expired' },
    ],
  };
}

const diagnostics = (workflow: unknown) => validateDefinitionText(JSON.stringify(workflow)).diagnostics;
const errors = (workflow: unknown) => diagnostics(workflow).filter((d) => d.severity === 'error');
const codes = (workflow: unknown) => errors(workflow).map((d) => d.code);

describe('reading a loop tail from the loop head', () => {
  it.each([
    ['a guarded conditional', '$exists(steps.review.output) ? steps.review.output.reason : input.topic'],
    ['a guard on the whole step', '$exists(steps.review) ? steps.review.output.reason : input.topic'],
    ['a guard inside an and', '$exists(steps.review.output) and steps.review.output.decision = "rejected" ? steps.review.output.reason : input.topic'],
    ['a nested guard', '{ "why": input.topic = "x" ? "x" : ($exists(steps.review.output) ? steps.review.output.reason : null) }'],
    ['the guard itself', '$exists(steps.review.output)'],
  ])('accepts %s', (_name, draftInput) => {
    expect(errors(loop({ draftInput }))).toEqual([]);
  });

  it('accepts a guarded read in a template placeholder', () => {
    const wf = loop();
    Object.assign(wf.steps[1] as object, { config: { task: 'review', title: 'Review (earlier: {{ $exists(steps.review.output) ? steps.review.output.reason : "none" }})' } });
    expect(errors(wf)).toEqual([]);
  });

  it('accepts a step reading its own previous pass behind a guard', () => {
    expect(errors(loop({ draftInput: '$exists(steps.draft.output) ? steps.draft.output : input.topic' }))).toEqual([]);
  });

  it('flags an unguarded read of the tail with its own code, naming the loop edge, step and path', () => {
    const found = errors(loop({ draftInput: '{ "reason": steps.review.output.reason }' }));
    expect(found).toHaveLength(1);
    const [d] = found;
    expect(d).toMatchObject({ code: 'unguarded-loop-read', stepId: 'draft', path: '$.steps[0].input', position: 17 });
    expect(d?.message).toMatch(/steps\.review.*loop edge "redo"/);
    expect(d?.hint).toContain('$exists(steps.review.output) ? steps.review.output');
  });

  it.each([
    ['a guard on another step', '$exists(steps.draft.output) ? steps.review.output.reason : input.topic'],
    ['a read in the else branch of its guard', '$exists(steps.review.output) ? input.topic : steps.review.output.reason'],
    ['a read in an or', '$exists(steps.review.output) or steps.review.output.reason = "x"'],
    ['a read beside the guard', '[$exists(steps.review.output), steps.review.output.reason]'],
  ])('flags %s', (_name, draftInput) => {
    expect(codes(loop({ draftInput }))).toEqual(['unguarded-loop-read']);
  });

  it('flags an unguarded read of the step\'s own previous pass', () => {
    expect(codes(loop({ draftInput: 'steps.draft.output' }))).toEqual(['unguarded-loop-read']);
  });

  it('still checks the fields of a guarded read', () => {
    const found = errors(loop({ draftInput: '$exists(steps.review.output) ? steps.review.output.nope : null' }));
    expect(found.map((d) => d.code)).toEqual(['undeclared-field']);
  });

  it('leaves a guard no excuse for a step that is not behind a loop edge', () => {
    // `side` runs on a branch of its own: it is not certain before `after`, loop or not.
    const wf = loop({
      extraSteps: [
        { id: 'side', kind: 'transform', config: { expression: '1' } },
        { id: 'after', kind: 'transform', input: '$exists(steps.side.output) ? steps.side.output : 0', config: { expression: '$' } },
      ],
      edges: [
        { id: 'to_review', from: 'draft', to: 'review' },
        { id: 'approved', from: 'review', to: 'after' },
        { id: 'redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 2 },
        { id: 'used_up', from: 'review', to: 'gave_up', on: 'exhausted' },
        { id: 'expired', from: 'review', to: 'late', on: 'expired' },
        { id: 'side_edge', from: 'review', to: 'side', on: 'rejected' },
        { id: 'side_done', from: 'side', to: 'done' },
        { id: 'after_done', from: 'after', to: 'done' },
      ],
    });
    // Both reads, the guard's own included, as before guards were known.
    expect(codes(wf)).toEqual(['missing-dependency', 'missing-dependency']);
  });
});

describe('$activation', () => {
  it('is known in step expressions and edge conditions', () => {
    const wf = loop({ draftInput: '{ "pass": $activation, "first": $activation = 1 }' });
    (wf.edges[1] as Record<string, unknown>)['when'] = '$activation < 3';
    expect(errors(wf)).toEqual([]);
  });

  it('is a number, not a condition', () => {
    const wf = loop();
    (wf.edges[1] as Record<string, unknown>)['when'] = '$activation';
    expect(codes(wf)).toEqual(['non-boolean-condition']);
  });

  it('has no value in the workflow output, which no step evaluates', () => {
    const found = errors(loop({ output: '{ "passes": $activation }' }));
    expect(found.map((d) => [d.code, d.path])).toEqual([['undeclared-field', '$.output']]);
    expect(found[0]?.message).toContain('$activation');
  });
});

describe('exhausted edges', () => {
  it('accepts an exhausted edge from a step with a loop edge, and its target may read that step', () => {
    const wf = loop({
      extraSteps: [{ id: 'explain', kind: 'transform', config: { expression: 'steps.review.output.reason' } }],
      edges: [
        { id: 'to_review', from: 'draft', to: 'review' },
        { id: 'approved', from: 'review', to: 'done' },
        { id: 'redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 2 },
        { id: 'used_up', from: 'review', to: 'explain', on: 'exhausted' },
        { id: 'explained', from: 'explain', to: 'gave_up' },
        { id: 'expired', from: 'review', to: 'late', on: 'expired' },
      ],
    });
    expect(errors(wf)).toEqual([]);
  });

  it('the target of an exhausted edge that backs a loop on failures cannot read an output', () => {
    const wf = loop({
      extraSteps: [
        { id: 'call', kind: 'script', config: { module: 'x.mjs', export: 'run' } },
        { id: 'explain', kind: 'transform', config: { expression: 'steps.call.output' } },
      ],
      edges: [
        { id: 'to_review', from: 'draft', to: 'review' },
        { id: 'approved', from: 'review', to: 'call' },
        { id: 'call_ok', from: 'call', to: 'done' },
        { id: 'call_again', from: 'call', to: 'draft', on: 'failed', maxTraversals: 2 },
        { id: 'call_used_up', from: 'call', to: 'explain', on: 'exhausted' },
        { id: 'explained', from: 'explain', to: 'gave_up' },
        { id: 'redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 2 },
        { id: 'used_up', from: 'review', to: 'gave_up', on: 'exhausted' },
        { id: 'expired', from: 'review', to: 'late', on: 'expired' },
      ],
    });
    expect(codes(wf)).toEqual(['missing-dependency']);
  });

  it('flags an exhausted edge from a step without a loop edge', () => {
    const wf = loop();
    (wf.edges[2] as Record<string, unknown>)['maxTraversals'] = undefined;
    (wf.edges[2] as Record<string, unknown>)['to'] = 'gave_up';
    const found = errors(wf);
    expect(found.map((d) => [d.code, d.edgeId, d.path])).toEqual([['invalid-exhausted-edge', 'used_up', '$.edges[3].on']]);
    expect(found[0]?.message).toContain('"review" has no loop edge');
  });

  it('flags an exhausted edge that also follows outcomes', () => {
    const wf = loop();
    (wf.edges[3] as Record<string, unknown>)['on'] = ['exhausted', 'failed'];
    const found = errors(wf);
    expect(found.map((d) => [d.code, d.edgeId])).toEqual([['invalid-exhausted-edge', 'used_up']]);
  });

  it('accepts an exhausted edge without a condition from a router, and flags one marked default', () => {
    const wf = loop({
      extraSteps: [{ id: 'route', kind: 'router' }],
      edges: [
        { id: 'to_review', from: 'draft', to: 'review' },
        { id: 'decided', from: 'review', to: 'route', on: ['succeeded', 'rejected'] },
        { id: 'expired', from: 'review', to: 'late', on: 'expired' },
        { id: 'redo', from: 'route', to: 'draft', when: 'steps.review.output.decision = "rejected"', maxTraversals: 2 },
        { id: 'otherwise', from: 'route', to: 'done', default: true },
        { id: 'used_up', from: 'route', to: 'gave_up', on: 'exhausted' },
      ],
    });
    expect(errors(wf)).toEqual([]);
    Object.assign(wf.edges[4] as object, { default: false, when: 'steps.review.output.decision = "approved"' });
    Object.assign(wf.edges[5] as object, { default: true });
    expect(errors(wf).map((d) => [d.code, d.edgeId])).toEqual([['invalid-exhausted-edge', 'used_up']]);
  });

  it('flags an exhausted edge that has a bound of its own', () => {
    const wf = loop();
    (wf.edges[3] as Record<string, unknown>)['maxTraversals'] = 1;
    expect(codes(wf)).toEqual(['invalid-exhausted-edge']);
  });
});
