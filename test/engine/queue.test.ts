// limits.maxParallelRuns: runs beyond the limit queue (waiting) and start by priority, then age.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, parseWorkflow, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

describe('maxParallelRuns', () => {
  it('queues runs past the limit and starts the highest priority first', async () => {
    h = harness();
    const flow = parseWorkflow({
      format: 'weft/v1', id: 'limited', version: 1, name: 'Limited',
      limits: { maxParallelRuns: 1 },
      steps: [{ id: 'work', kind: 'command', config: { argv: ['sh', '-c', 'sleep 0.1; echo 1'] } }, { id: 'done', kind: 'end' }],
      edges: [{ id: 'a', from: 'work', to: 'done' }],
    });
    const hash = h.store.saveDefinition(flow, Date.now());
    const start = (priority: number) => h?.engine.startRun({ workflow: flow, definitionHash: hash, input: {}, workspaceDir: h.dir, priority }) as string;
    const first = start(0);
    const low = start(1);
    const high = start(5);
    expect(h.engine.model(low)?.queued).toBe(true);
    for (const id of [first, low, high]) expect(await h.engine.settled(id)).toBe('succeeded');
    const began = (id: string) => h?.events(id).find((e) => e.type === 'attempt_started')?.seq !== undefined
      ? (h?.events(id).find((e) => e.type === 'attempt_started')?.at ?? 0)
      : 0;
    const dequeued = (id: string) => h?.events(id).find((e) => e.type === 'run_dequeued')?.at ?? -1;
    expect(dequeued(high)).toBeGreaterThan(0);
    expect(dequeued(high)).toBeLessThanOrEqual(dequeued(low));
    expect(began(high)).toBeLessThanOrEqual(began(low));
    expect(h.events(low).map((e) => e.type).slice(0, 3)).toEqual(['run_created', 'run_queued', 'run_state_changed']);
  });
});
