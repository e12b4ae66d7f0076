// StoreWorker, the one worker shape the read and comparison workers share, on a real worker thread
// running the real worker side (store-worker-thread.ts, via test-store-worker.ts): concurrent
// requests each get their own answer; the service's error crosses as a ServiceError and a bug as an
// internal error; an answer that cannot cross threads fails its request only; a worker that cannot
// load, or an in-memory store, answers on this thread; a worker that dies mid-request fails what it
// held with a clear error and the next request starts another; close refuses what is pending.
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../engine/service/service-error.ts';
import { StoreWorker } from '../../engine/service/store-worker.ts';
import type { TestRequest } from './fixtures/test-store-worker-protocol.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-store-worker-'));
const storePath = join(dir, 'store.db');
const SCRIPT = new URL('./fixtures/test-store-worker.ts', import.meta.url);
const MISSING = new URL(`file://${join(dir, 'no-such-worker.mjs')}`);
const workers: StoreWorker<TestRequest, unknown>[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  rmSync(dir, { recursive: true, force: true });
});

function worker(o: { script?: URL; storePath?: string; inline?: (r: TestRequest) => unknown } = {}): StoreWorker<TestRequest, unknown> {
  const w = new StoreWorker<TestRequest, unknown>({
    store: o.storePath ?? storePath,
    entry: 'no-such-entry',
    inline: o.inline ?? ((r) => ({ thread: 'inline', op: r.op })),
    name: 'the test worker',
    answered: 'the test was answered',
    unanswered: 'the test was not answered',
    script: o.script ?? SCRIPT,
  });
  workers.push(w);
  return w;
}

const refusal = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

describe('StoreWorker', () => {
  it('answers concurrent requests on its thread, each with its own answer', async () => {
    const w = worker();
    const answers = await Promise.all([1, 2, 3, 4, 5].map((value) => w.ask({ op: 'echo', value })));
    expect(answers).toEqual([1, 2, 3, 4, 5].map((value) => ({ storePath, value, thread: 'worker' })));
  });

  it('starts its thread ahead of the first request, and that thread answers it', async () => {
    const w = worker();
    expect(w.threadId).toBeUndefined();
    await w.start();
    const started = w.threadId;
    expect(started).toBeGreaterThan(0);
    await w.start(); // already running: the same thread
    expect(w.threadId).toBe(started);
    expect(await w.ask({ op: 'echo', value: 9 })).toEqual({ storePath, value: 9, thread: 'worker' });
    expect(w.threadId).toBe(started);
  });

  it('starts nothing ahead where no worker can run, and still answers on this thread', async () => {
    const w = worker({ storePath: ':memory:' });
    await w.start();
    expect(w.threadId).toBeUndefined();
    expect(await w.ask({ op: 'echo', value: 1 })).toEqual({ thread: 'inline', op: 'echo' });
  });

  it("rejects with the service's error as it was raised, and a bug as an internal error", async () => {
    const w = worker();
    const missing = await refusal(w.ask({ op: 'missing', run: 'r-nope' }));
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).toMatchObject({ code: 'not-found', message: 'no run "r-nope"', path: 'run' });
    const bug = await refusal(w.ask({ op: 'bug' }));
    expect(bug).toBeInstanceOf(ServiceError);
    expect(bug).toMatchObject({ code: 'internal', message: 'the test failed: a bug' });
    expect(await w.ask({ op: 'echo', value: 7 })).toMatchObject({ value: 7, thread: 'worker' });
  });

  it('fails an answer that cannot cross threads, and still answers the requests after it', async () => {
    const w = worker();
    const [uncloneable, after] = await Promise.all([refusal(w.ask({ op: 'uncloneable' })), w.ask({ op: 'echo', value: 8 })]);
    expect(uncloneable).toBeInstanceOf(ServiceError);
    expect(uncloneable).toMatchObject({ code: 'internal', message: expect.stringMatching(/^the test failed: .*could not be cloned/) });
    expect(after).toMatchObject({ value: 8, thread: 'worker' });
  });

  it('answers on this thread where its code cannot be loaded, what was pending and what follows', async () => {
    const w = worker({ script: MISSING });
    expect(await Promise.all([w.ask({ op: 'echo', value: 1 }), w.ask({ op: 'die' })])).toEqual([
      { thread: 'inline', op: 'echo' },
      { thread: 'inline', op: 'die' },
    ]);
    expect(await w.ask({ op: 'bug' })).toEqual({ thread: 'inline', op: 'bug' });
  });

  it('rejects with what the inline answer threw where no worker can run', async () => {
    const w = worker({
      script: MISSING,
      inline: () => {
        throw new ServiceError('not-found', 'no run "r-inline"', 'run');
      },
    });
    expect(await refusal(w.ask({ op: 'echo', value: 1 }))).toMatchObject({ code: 'not-found', message: 'no run "r-inline"' });
  });

  it('answers on this thread for an in-memory store, which no other connection can open', async () => {
    const w = worker({ storePath: ':memory:' });
    expect(await w.ask({ op: 'echo', value: 1 })).toEqual({ thread: 'inline', op: 'echo' });
  });

  it('fails what a worker held when it dies mid-request, and starts another for the next request', async () => {
    const w = worker();
    expect(await w.ask({ op: 'echo', value: 1 })).toMatchObject({ thread: 'worker' });
    const [died, queued] = await Promise.all([refusal(w.ask({ op: 'die' })), refusal(w.ask({ op: 'echo', value: 2 }))]);
    for (const e of [died, queued]) {
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({ code: 'internal', message: 'the test worker stopped (exit code 3); the test was not answered, try again' });
    }
    expect(await w.ask({ op: 'echo', value: 3 })).toEqual({ storePath, value: 3, thread: 'worker' });
  });

  it('refuses what is pending when closed, and every request after', async () => {
    const w = worker();
    expect(await w.ask({ op: 'echo', value: 1 })).toMatchObject({ thread: 'worker' });
    const pending = [refusal(w.ask({ op: 'hang' })), refusal(w.ask({ op: 'echo', value: 2 }))];
    await w.close();
    for (const e of await Promise.all(pending)) {
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({ code: 'internal', message: 'the server stopped before the test was answered' });
    }
    expect(await refusal(w.ask({ op: 'echo', value: 3 }))).toMatchObject({ code: 'internal', message: 'the server is stopping; the test was not answered' });
  });
});
