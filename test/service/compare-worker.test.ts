// CompareWorker on a real store (SQLite, or PostgreSQL in the conformance suite, opened by its
// URL): a comparison computed on the worker thread (its own read-only connection) equals the one RunReader computes on this thread, an unknown run comes back as the
// service's not-found error naming its side, and where the worker's code cannot be loaded the
// comparison is still answered, computed on this thread. Runs are made by the real engine.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPARE_FIELD_LIMIT, COMPARE_VALUE_LIMIT } from '../../shared/api/run-comparison.ts';
import { CompareWorker } from '../../engine/service/compare-worker.ts';
import { RunReader } from '../../engine/service/run-reader.ts';
import { ServiceError } from '../../engine/service/service-error.ts';
import { end, harness, wf } from '../engine/harness.ts';

const h = harness();
const cut = { valueLimit: COMPARE_VALUE_LIMIT, fieldLimit: COMPARE_FIELD_LIMIT };
const flow = wf('pick', [
  { id: 'pick', kind: 'router', input: 'input' },
  { id: 'big', kind: 'transform', config: { expression: '{"size": "big", "blob": $pad("", 10000, "x")}' } },
  { id: 'small', kind: 'transform', config: { expression: '{"size": "small"}' } },
  end(),
], [
  { id: 'to_big', from: 'pick', to: 'big', when: 'output.n > 10' },
  { id: 'to_small', from: 'pick', to: 'small', default: true },
  { id: 'big_done', from: 'big', to: 'done' },
  { id: 'small_done', from: 'small', to: 'done' },
]);
const workers: CompareWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  h.close();
});

async function twoRuns(): Promise<[string, string]> {
  const a = h.start(flow, { n: 20 }).runId;
  const b = h.start(flow, { n: 2 }).runId;
  await h.engine.settled(a);
  await h.engine.settled(b);
  return [a, b];
}

const inline = (a: string, b: string, c: typeof cut) => new RunReader(h.store).runComparison(a, b, c);

describe('CompareWorker', () => {
  it('computes on its thread what the reader computes on this one, and names the side of an unknown run', async () => {
    const [a, b] = await twoRuns();
    let inlineCalls = 0;
    const worker = new CompareWorker(h.storeText, (x, y, c) => {
      inlineCalls++;
      return inline(x, y, c);
    });
    workers.push(worker);
    const c = await worker.compare(a, b, cut);
    expect(c).toEqual(inline(a, b, cut));
    expect(c.steps.find((s) => s.id === 'big')?.a?.output).toMatchObject({ $weft: 'elided', path: 'steps.big.attempts[0].output' });
    const refused = await worker.compare(a, 'rnope', cut).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'not-found', message: expect.stringMatching(/^run B: no run "rnope"/) });
    expect(inlineCalls).toBe(0);
  });

  it('computes on this thread where its code cannot be loaded', async () => {
    const [a, b] = await twoRuns();
    const worker = new CompareWorker(h.storeText, inline, new URL(`file://${join(h.dir, 'no-such-worker.mjs')}`));
    workers.push(worker);
    expect(await worker.compare(a, b, cut)).toEqual(inline(a, b, cut));
    expect(await worker.compare(b, a, cut)).toEqual(inline(b, a, cut));
  });
});

describe('CompareWorker on an in-memory store', () => {
  it('computes on this thread, since no other connection can open the store', async () => {
    const [a, b] = await twoRuns();
    const worker = new CompareWorker(':memory:', inline);
    workers.push(worker);
    expect(await worker.compare(a, b, cut)).toEqual(inline(a, b, cut));
  });
});
