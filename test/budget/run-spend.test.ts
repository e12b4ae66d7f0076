// What a live run has spent, kept as its events are folded (engine/runtime/run-spend.ts) for the
// budget check before each attempt, always equals runSpend over the model (every attempt's
// recorded cost): checked after every event of a real run with retries and costs on two steps,
// starting from a kept spend (an attempt's end changes its step's) and from none (an event of the
// whole run makes it be worked out again).
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { newLiveRun } from '../../engine/runtime/live-run.ts';
import { noteSpend, spentOf } from '../../engine/runtime/run-spend.ts';
import { applyEvent } from '../../shared/run/apply-event.ts';
import { newRunModel } from '../../shared/run/run-model.ts';
import { runSpend } from '../../shared/run/run-budget.ts';
import { Scenario } from '../../shared/scenario/scenario-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';

const http = (id: string) => ({ id, kind: 'http', config: { method: 'POST', url: `https://api.example/${id}` }, retry: { maxAttempts: 3, initialIntervalMs: 1_000 } });
const workflow = parseWorkflow({
  format: 'weft/v1', id: 'pay-flow', version: 1, name: 'Pay flow',
  steps: [http('draft'), http('polish'), { id: 'done', kind: 'end' }],
  edges: [{ id: 'drafted', from: 'draft', to: 'polish' }, { id: 'polished', from: 'polish', to: 'done' }],
});

describe('the spend a live run keeps', () => {
  it('equals runSpend after every event of a run with retries and costs', async () => {
    const r = await runScenario(workflow, Scenario.parse({
      name: 'costs and retries',
      steps: {
        draft: [{ fail: 'rate_limited', cost: 0.1 }, { succeed: { text: 'v1' }, cost: 0.3 }],
        polish: [{ fail: 'rate_limited', cost: 0.15 }, { fail: 'rate_limited', cost: 0.05 }, { succeed: { text: 'v2' }, cost: 0.25 }],
      },
      expect: { state: 'succeeded' },
    }));
    expect(r.passed, r.error).toBe(true);
    const runId = r.runs[0]?.runId ?? '';
    const model = newRunModel(runId, workflow);
    const live = newLiveRun(model);
    let costed = 0;
    for (const e of r.events.filter((x) => x.runId === runId)) {
      applyEvent(model, e);
      noteSpend(live, e);
      expect(spentOf(live), `after event ${e.seq} ${e.type}`).toBe(runSpend(model));
      if ((e.type === 'attempt_failed' || e.type === 'attempt_succeeded') && e.data.meta?.cost !== undefined) costed++;
    }
    expect(costed).toBe(5);
    expect(spentOf(live)).toBe(0.85);
  });
});
