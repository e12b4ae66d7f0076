// The read worker's kept models (engine/service/folded-runs.ts): a model folded forward by the
// events committed since it was last read is the model a fresh fold of the whole log gives, so
// the summary and the full detail built from it are the same. Proved on a real engine writing a
// real SQLite file while a second, read-only connection (as the read worker has) reads the run
// between its steps; and the kept models stay within their bound.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldedRuns } from '../../engine/service/folded-runs.ts';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import type { Store } from '../../engine/store/store.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { DETAIL_ATTEMPTS } from '../../shared/api/step-attempts.ts';
import { harness, type Harness } from '../engine/harness.ts';
import { redraftLoop } from '../engine/redraft-loop.ts';

const redraft = redraftLoop;

let h: Harness | undefined;
let reader: { store: Store; close(): void } | undefined;

afterEach(() => {
  reader?.close();
  reader = undefined;
  h?.close();
  if (h !== undefined) rmSync(h.dir, { recursive: true, force: true });
  h = undefined;
});

/** The run's summary and full detail from a fresh fold of its whole log, read on `store`. */
const fresh = (store: Store, runId: string) => {
  const model = foldRun(store, runId, store.readEvents(runId));
  return { summary: runDetail(model, { latestAttempts: DETAIL_ATTEMPTS }), full: runDetail(model) };
};

describe('a kept model folded forward', () => {
  it('gives the summary and the detail a fresh fold gives, across a run that goes on between reads', async () => {
    h = harness();
    const { runId } = h.start(redraft);
    expect(await h.engine.settled(runId)).toBe('waiting');
    h.engine.flush();
    reader = await openReadOnlyStore(h.storeText);
    const folded = new FoldedRuns(reader.store);
    const seen: number[] = [];
    const read = () => {
      const model = folded.model(runId);
      seen.push(model.lastSeq);
      const kept = { summary: runDetail(model, { latestAttempts: DETAIL_ATTEMPTS }), full: runDetail(model) };
      expect(kept).toEqual(fresh(reader?.store ?? h!.store, runId));
      return kept;
    };
    read();
    for (let pass = 1; pass <= 30; pass++) {
      await h.engine.decideTask(runId, 'review', { decision: 'rejected', by: 'ana', reason: `pass ${pass}` });
      expect(await h.engine.settled(runId)).toBe('waiting');
      h.engine.flush();
      read();
      // Read again with nothing new: the kept model as it is.
      if (pass % 10 === 0) read();
    }
    await h.engine.decideTask(runId, 'review', { decision: 'approved', by: 'ana' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    h.engine.flush();
    const last = read();

    // The run went on between reads, and every read after the first folded forward.
    expect(new Set(seen).size).toBe(32);
    expect(folded.counts).toEqual({ fresh: 1, forward: seen.length - 1 });
    const draft = last.summary.steps.find((s) => s.id === 'draft');
    expect(draft?.attempts).toHaveLength(DETAIL_ATTEMPTS);
    expect(draft?.attemptCount).toBe(31);
    expect(last.full.steps.find((s) => s.id === 'draft')?.attempts).toHaveLength(31);
    expect(last.summary.run.state).toBe('succeeded');
  });

  it('keeps at most its bound of runs and events, the least recently read going first', async () => {
    h = harness();
    const runs = [h.start(redraft).runId, h.start(redraft).runId, h.start(redraft).runId];
    for (const runId of runs) expect(await h.engine.settled(runId)).toBe('waiting');
    h.engine.flush();
    reader = await openReadOnlyStore(h.storeText);
    const events = reader.store.readEvents(runs[0] ?? '').length;

    const two = new FoldedRuns(reader.store, { maxRuns: 2, maxEvents: 1_000_000 });
    for (const runId of runs) two.model(runId);
    expect(two.size()).toEqual({ runs: 2, events: 2 * events });
    two.model(runs[2] ?? ''); // kept
    two.model(runs[0] ?? ''); // dropped for the third run, folded again
    expect(two.counts).toEqual({ fresh: 4, forward: 1 });

    const small = new FoldedRuns(reader.store, { maxRuns: 8, maxEvents: events - 1 });
    small.model(runs[0] ?? '');
    small.model(runs[0] ?? '');
    expect(small.size()).toEqual({ runs: 0, events: 0 });
    expect(small.counts).toEqual({ fresh: 2, forward: 0 });
  });
});
