// Revise loops on the real engine: the head reads the latest rejection (whichever reviewer gave
// it) through a guarded read, `$activation` counts the passes, and a loop edge whose
// maxTraversals are used up hands the outcome to the step's `exhausted` edge.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { data, end, harness, wf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const human = (id: string) => ({ id, kind: 'human', config: { task: 'review', title: `Review ${id}` }, deadlineMs: 86_400_000 });

/**
 * draft → review → rereview → done. Either reviewer's rejection loops back to draft; draft reads
 * the reason of the latest rejection: review runs before rereview in every pass, so a rejection
 * by review is the latest one, and otherwise rereview's is.
 */
const twoReviewers = wf(
  'two-reviewers',
  [
    {
      id: 'draft',
      kind: 'transform',
      config: {
        expression: `{
          "pass": $activation,
          "reason": $exists(steps.review.output) and steps.review.output.decision = "rejected"
            ? steps.review.output.reason
            : ($exists(steps.rereview.output) ? steps.rereview.output.reason : null)
        }`,
      },
    },
    human('review'),
    human('rereview'),
    end(),
    end('gave_up', 'failed'),
    end('late', 'failed'),
  ],
  [
    { id: 'to_review', from: 'draft', to: 'review' },
    { id: 'to_rereview', from: 'review', to: 'rereview' },
    { id: 'accepted', from: 'rereview', to: 'done' },
    { id: 'review_redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 3 },
    { id: 'rereview_redo', from: 'rereview', to: 'draft', on: 'rejected', maxTraversals: 1 },
    { id: 'rereview_used_up', from: 'rereview', to: 'gave_up', on: 'exhausted' },
    { id: 'review_used_up', from: 'review', to: 'gave_up', on: 'exhausted' },
    { id: 'review_late', from: 'review', to: 'late', on: 'expired' },
    { id: 'rereview_late', from: 'rereview', to: 'late', on: 'expired' },
  ],
);

const settledEdges = (events: readonly RunEvent[], step: string) => data(events, 'step_settled', step).map((d) => d.edges);

describe('revise loops', () => {
  it('gives each redraft the reason of the latest rejection, whichever reviewer gave it, and counts passes', async () => {
    h = harness();
    const { runId } = h.start(twoReviewers);
    const draft = () => h?.model(runId).view['draft']?.output;
    expect(await h.engine.settled(runId)).toBe('waiting');
    expect(draft()).toEqual({ pass: 1, reason: null });

    await h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana', reason: 'A: cite sources' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    expect(draft()).toEqual({ pass: 2, reason: 'A: cite sources' });

    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    await h.engine.decideTask(runId, 'rereview', { decision: 'rejected', by: 'ben', reason: 'B: too long' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    expect(draft()).toEqual({ pass: 3, reason: 'B: too long' });

    // The first reviewer rejects again: its reason is the latest, not ben's from the pass before.
    await h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana', reason: 'C: wrong title' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    expect(draft()).toEqual({ pass: 4, reason: 'C: wrong title' });

    // rereview's loop edge (bound 1) is used up: its rejection takes the exhausted edge.
    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    await h.engine.decideTask(runId, 'rereview', { decision: 'rejected', by: 'ben', reason: 'D: still too long' });
    expect(await h.engine.settled(runId)).toBe('failed');

    const events = h.events(runId);
    const last = settledEdges(events, 'rereview').at(-1);
    expect(last).toEqual(expect.arrayContaining([
      { id: 'rereview_redo', taken: false, why: 'maxTraversals (1) reached' },
      { id: 'rereview_used_up', taken: true, why: 'loop edge "rereview_redo" has used up its maxTraversals (1)' },
    ]));
    const m = h.model(runId);
    expect(m.steps.get('gave_up')?.state).toBe('succeeded');
    expect(m.steps.get('draft')?.activation).toBe(4);
    expect(events.find((e) => e.type === 'run_failing')?.reason).toBe('reached end step "gave_up" (status failed)');
  });

  it('takes no exhausted edge while the loop edge has traversals left, nor for other outcomes', async () => {
    h = harness();
    const { runId } = h.start(twoReviewers);
    await h.engine.settled(runId);
    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana' });
    await h.engine.settled(runId);
    await h.engine.decideTask(runId, 'rereview', { decision: 'rejected', by: 'ben', reason: 'once' });
    await h.engine.settled(runId);
    expect(settledEdges(h.events(runId), 'rereview')[0]).toEqual(expect.arrayContaining([
      { id: 'rereview_redo', taken: true, why: '"rereview" rejected (traversal 1 of 1)' },
      { id: 'rereview_used_up', taken: false, why: 'no loop edge of "rereview" has used up its maxTraversals' },
    ]));
    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana' });
    await h.engine.settled(runId);
    // An approval: the loop edge does not follow it, so its bound does not matter.
    await h.engine.decideTask(runId, 'rereview', { decision: 'approved', by: 'ben' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(settledEdges(h.events(runId), 'rereview')[1]).toEqual(expect.arrayContaining([
      { id: 'accepted', taken: true, why: '"rereview" succeeded' },
      { id: 'rereview_used_up', taken: false, why: 'no loop edge of "rereview" has used up its maxTraversals' },
    ]));
  });

  it('on a router, takes the exhausted edge instead of the default once the loop edge is used up', async () => {
    h = harness();
    const routed = wf(
      'routed-loop',
      [
        { id: 'ask', kind: 'human', config: { task: 'approve', title: 'Good?' }, deadlineMs: 86_400_000 },
        { id: 'route', kind: 'router' },
        end(),
        end('gave_up', 'failed'),
        end('late', 'failed'),
      ],
      [
        { id: 'answered', from: 'ask', to: 'route', on: ['succeeded', 'rejected'] },
        { id: 'expired', from: 'ask', to: 'late', on: 'expired' },
        { id: 'again', from: 'route', to: 'ask', when: 'steps.ask.output.decision = "rejected"', maxTraversals: 1 },
        { id: 'otherwise', from: 'route', to: 'done', default: true },
        { id: 'used_up', from: 'route', to: 'gave_up', on: 'exhausted' },
      ],
    );
    const { runId } = h.start(routed);
    for (let k = 0; k < 2; k++) {
      expect(await h.engine.settled(runId)).toBe('waiting');
      await h.engine.decideTask(runId, 'ask', { decision: 'rejected', by: 'ana', reason: `no ${k}` });
    }
    expect(await h.engine.settled(runId)).toBe('failed');
    expect(settledEdges(h.events(runId), 'route')).toEqual([
      [
        { id: 'again', taken: true, why: 'condition "steps.ask.output.decision = "rejected"" is true (traversal 1 of 1)' },
        { id: 'used_up', taken: false, why: 'no loop edge of "route" has used up its maxTraversals' },
        { id: 'otherwise', taken: false, why: 'a condition matched' },
      ],
      [
        { id: 'again', taken: false, why: 'maxTraversals (1) reached' },
        { id: 'used_up', taken: true, why: 'loop edge "again" has used up its maxTraversals (1)' },
        { id: 'otherwise', taken: false, why: 'an exhausted edge was taken' },
      ],
    ]);
    expect(h.model(runId).steps.get('done')?.state).toBe('skipped');
  });

  it('exposes $activation to step inputs, templates and edge conditions', async () => {
    h = harness();
    const counter = wf(
      'counter',
      [
        { id: 'count', kind: 'transform', input: '{ "pass": $activation }', config: { expression: '"pass " & $string($activation)' } },
        { id: 'ask', kind: 'human', config: { task: 'approve', title: 'Pass {{ $activation }}' }, deadlineMs: 86_400_000 },
        end(),
        end('late', 'failed'),
      ],
      [
        { id: 'to_ask', from: 'count', to: 'ask' },
        { id: 'again', from: 'ask', to: 'count', on: 'rejected', when: '$activation < 3', maxTraversals: 5 },
        { id: 'enough', from: 'ask', to: 'done', on: ['succeeded', 'rejected'], when: '$activation >= 3' },
        { id: 'ok', from: 'ask', to: 'done', when: '$activation < 3' },
        { id: 'expired', from: 'ask', to: 'late', on: 'expired' },
      ],
    );
    const { runId } = h.start(counter);
    for (let pass = 1; pass <= 3; pass++) {
      expect(await h.engine.settled(runId)).toBe('waiting');
      expect(h.model(runId).view['count']?.output).toBe(`pass ${pass}`);
      expect(h.model(runId).steps.get('ask')?.task?.title).toBe(`Pass ${pass}`);
      await h.engine.decideTask(runId, 'ask', { decision: 'rejected', by: 'ana', reason: 'again' });
    }
    expect(await h.engine.settled(runId)).toBe('succeeded');
    expect(h.model(runId).traversals.get('again')).toBe(2);
    expect(data(h.events(runId), 'attempt_started', 'count').map((d) => d.input)).toEqual([{ pass: 1 }, { pass: 2 }, { pass: 3 }]);
  });

  it('does not reuse the result of an earlier activation for a step that reads $activation', async () => {
    h = harness();
    const twoSteps = wf(
      'activation-evidence',
      [
        { id: 'numbered', kind: 'transform', config: { expression: '"activation " & $string($activation)' } },
        { id: 'plain', kind: 'transform', config: { expression: '"same every time"' } },
        { id: 'ask', kind: 'human', config: { task: 'approve', title: 'Go on?' }, deadlineMs: 86_400_000 },
        end(),
        end('late', 'failed'),
      ],
      [
        { id: 'a', from: 'numbered', to: 'plain' },
        { id: 'b', from: 'plain', to: 'ask' },
        { id: 'c', from: 'ask', to: 'done' },
        { id: 'd', from: 'ask', to: 'late', on: ['rejected', 'expired'] },
      ],
      { input: { type: 'object', properties: { note: { type: 'string' } } } },
    );
    const { runId } = h.start(twoSteps, { note: 'first' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    h.engine.revise(runId, { note: 'second' });
    expect(await h.engine.settled(runId)).toBe('waiting');
    const events = h.events(runId);
    // The step that reads no input and no $activation reuses its evidence; the numbered one runs again.
    expect(events.filter((e) => e.type === 'evidence_reused').map((e) => e.step)).toEqual(['plain']);
    expect(h.model(runId).view['numbered']?.output).toBe('activation 2');
  });
});
