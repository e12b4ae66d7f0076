// The workflow the readers' tests grow long runs with: a draft and a person's review in a loop,
// so the run waits after every pass and each rejection adds one more attempt of each step.
import { end, wf } from './harness.ts';

/** draft (a transform writing its pass number) → review (human) → done, or back to draft when rejected (40 times at most). */
export const redraftLoop = wf(
  'redraft',
  [{ id: 'draft', kind: 'transform', config: { expression: '{"pass": $activation}' } }, { id: 'review', kind: 'human', config: { task: 'review', title: 'Review the draft' }, deadlineMs: 86_400_000 }, end()],
  [
    { id: 'to_review', from: 'draft', to: 'review' },
    { id: 'redo', from: 'review', to: 'draft', on: 'rejected', maxTraversals: 40 },
    { id: 'accepted', from: 'review', to: 'done' },
  ],
);
