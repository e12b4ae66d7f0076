// The store's one unit of work (engine/store/unit-of-work.ts): a flush writes the share of every
// job file (events, projections, the mark that a run consumed an external event, the rollup of
// a run it finishes) in one transaction, or none of them; after a failed commit each forgets its
// share, so the next commit neither repeats it nor leaves a gap in the run's log.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';

/** A store on a new file, and a connection of the test's own to the same file. */
function stores(): { store: Store; raw: Database.Database; close(): void } {
  const path = join(mkdtempSync(join(tmpdir(), 'weft-unit-of-work-')), 'weft.db');
  const db = openDatabase(path);
  const raw = new Database(path);
  return { store: new Store(db), raw, close: () => (raw.close(), db.close()) };
}

/** One finished run's whole tick: its events, its rows, the external event it consumed. */
function finishRun(store: Store, runId: string): void {
  store.newRun(runId);
  store.append({ runId, type: 'run_created', at: 1, data: { workflowId: 'w', version: 1, definitionHash: 'h', workspaceDir: '.', input: {} } });
  store.append({ runId, type: 'run_state_changed', at: 1, data: { state: 'running' } });
  store.append({ runId, type: 'run_state_changed', at: 2, data: { state: 'succeeded' } });
  store.setRunProjection({ id: runId, workflowId: 'w', version: 1, state: 'succeeded', inputRevision: 1, createdAt: 1, updatedAt: 2 });
  store.setStepProjection(runId, { stepId: 'wait', activation: 1, state: 'succeeded', attempts: 1, evidenceId: null });
  store.consumeExternalEvent('e1', runId, 'wait');
}

describe('the store\'s unit of work', () => {
  it('writes every job\'s share of a batch in one commit, or none of them, and forgets a failed one', () => {
    const { store, raw, close } = stores();
    try {
      store.receiveExternalEvent({ id: 'e1', name: 'paid', key: 'o1', data: {}, receivedAt: 0 });
      // A real SQLite failure at the end of the batch: the last event of the tick is refused.
      raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = 'run_state_changed' AND json_extract(NEW.data, '$.state') = 'succeeded' BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
      finishRun(store, 'r1');
      expect(() => store.flush()).toThrow(/refused by test/);
      const count = (table: string): number => (raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect({ events: count('events'), runs: count('runs'), steps: count('step_states'), rollups: count('run_metrics') }).toEqual({ events: 0, runs: 0, steps: 0, rollups: 0 });
      expect(store.externalEventConsumer('e1')).toBeUndefined();
      expect(store.hasPending).toBe(false);
      expect(store.stats.commits).toBe(0);

      raw.exec('DROP TRIGGER refuse');
      finishRun(store, 'r1');
      store.flush();
      // All of it, once: the run's log starts at 1 again (the failed batch's numbers were forgotten).
      expect(store.readEvents('r1').map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(store.getRun('r1')?.state).toBe('succeeded');
      expect(store.stepProjections('r1').map((s) => s.stepId)).toEqual(['wait']);
      expect(store.externalEventConsumer('e1')).toEqual({ runId: 'r1', stepId: 'wait' });
      expect(JSON.parse(store.rolledUpMetricsOf('r1') ?? 'null')).toMatchObject({ finished: true });
      expect(store.stats).toMatchObject({ commits: 1, rows: 3 + 1 + 1 });
    } finally {
      close();
    }
  });

  it('holds step rows alone for the next commit, as before the split: they call for none of their own', () => {
    const { store, raw, close } = stores();
    try {
      store.setStepProjection('r1', { stepId: 's', activation: 1, state: 'waiting', attempts: 0, evidenceId: null });
      expect(store.hasPending).toBe(false);
      store.flush();
      expect((raw.prepare('SELECT count(*) AS n FROM step_states').get() as { n: number }).n).toBe(0);
      store.append({ runId: 'r1', type: 'run_state_changed', at: 1, data: { state: 'running' } });
      store.flush();
      expect(store.stepProjections('r1').map((s) => [s.stepId, s.state])).toEqual([['s', 'waiting']]);
    } finally {
      close();
    }
  });
});
