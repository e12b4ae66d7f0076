// Search over the whole value, closed nodes included: keys and leaf values, case-insensitive, in
// display order, each match with the containers to open; stubs are searched once loaded. And the
// slice runner that keeps it from blocking: slices bounded by the (injected) clock.
import { describe, expect, it } from 'vitest';
import type { ElidedValue } from '../../../shared/api/elided-value.ts';
import { searchJson } from '../../../renderer/runs/payload/json-search.ts';
import { runInSlices } from '../../../renderer/runs/payload/slice-runner.ts';

describe('searchJson', () => {
  const value = { Name: 'Ada', tags: ['math', 'Engines'], nested: { deep: { name: 'Babbage', n: 1815 } }, flag: true };

  it('finds keys and leaf values in display order, with their ancestors', () => {
    expect([...searchJson(value, '$', 'name', new Map())]).toEqual([
      { path: '$.Name', in: 'key', ancestors: ['$'] },
      { path: '$.nested.deep.name', in: 'key', ancestors: ['$', '$.nested', '$.nested.deep'] },
    ]);
    expect([...searchJson(value, '$', 'ENG', new Map())].map((m) => [m.path, m.in])).toEqual([['$.tags[1]', 'value']]);
  });

  it('matches numbers and booleans by their JSON text, and nothing for an empty query', () => {
    expect([...searchJson(value, '$', '181', new Map())].map((m) => m.path)).toEqual(['$.nested.deep.n']);
    expect([...searchJson(value, '$', 'true', new Map())].map((m) => m.path)).toEqual(['$.flag']);
    expect([...searchJson(value, '$', '', new Map())]).toEqual([]);
  });

  it('does not look inside a stub until it is loaded, then finds matches at the stub\'s paths', () => {
    const stub: ElidedValue = { $weft: 'elided', bytes: 99_999, path: 'run.input.items', kind: 'array', count: 2, preview: '["needle"' };
    const v = { items: stub };
    expect([...searchJson(v, 'run.input', 'needle', new Map())]).toEqual([]);
    const loaded = new Map([['run.input.items', { value: ['hay', 'needle'], total: 2 }]]);
    expect([...searchJson(v, 'run.input', 'needle', loaded)]).toEqual([{ path: 'run.input.items[1]', in: 'value', ancestors: ['run.input', 'run.input.items'] }]);
  });
});

describe('runInSlices', () => {
  it('stops each slice when the budget is spent and resumes on the scheduler, delivering everything once', () => {
    let t = 0;
    const queue: (() => void)[] = [];
    const slices: number[][] = [];
    let finished = false;
    function* numbers() {
      for (let i = 0; i < 2000; i++) {
        t += 0.01; // each step "costs" 0.01 ms on the fake clock
        yield i;
      }
    }
    runInSlices(numbers(), (items, done) => {
      slices.push(items);
      finished = done;
    }, { budgetMs: 5, now: () => t, schedule: (f) => (queue.push(f), () => undefined) });
    // The first slice ran at once and stopped at the budget, at a 256-step check.
    expect(slices).toHaveLength(1);
    expect(slices[0]).toHaveLength(512);
    expect(finished).toBe(false);
    while (queue.length > 0) queue.shift()?.();
    expect(finished).toBe(true);
    expect(slices.flat()).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });

  it('cancel stops it between slices; returning false stops it too', () => {
    const queue: (() => void)[] = [];
    let t = 0;
    function* forever() {
      for (let i = 0; ; i++) {
        t += 1;
        yield i;
      }
    }
    let calls = 0;
    const cancel = runInSlices(forever(), () => void calls++, { budgetMs: 1, now: () => t, schedule: (f) => (queue.push(f), () => undefined) });
    cancel();
    while (queue.length > 0) queue.shift()?.();
    expect(calls).toBe(1);
    calls = 0;
    runInSlices(forever(), () => (calls++, false), { budgetMs: 1, now: () => t, schedule: (f) => (queue.push(f), () => undefined) });
    expect(queue).toHaveLength(0);
    expect(calls).toBe(1);
  });
});
