// A run that finishes is rolled up from the log the store wrote (engine/store/written-logs.ts)
// instead of reading it back: the rollup must equal the fold of the stored log exactly, a run the
// store did not create (or whose log is no longer kept) is read back, a commit that fails forgets
// the logs it touched, and what is kept stays within its caps. On real SQLite files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { WrittenLogs } from '../../engine/store/written-logs.ts';
import { runMetrics } from '../../engine/metrics/run-metrics.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';

const dirs: string[] = [];
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-written-logs-'));
  dirs.push(dir);
  return join(dir, 'weft.db');
}

function open(path: string): Store {
  const db = openDatabase(path);
  opened.push(db);
  return new Store(db);
}

/** Creates `runId` and runs its one step to the attempt's end, in two commits (not finished). */
function begin(store: Store, runId: string, at: number): void {
  store.newRun(runId);
  store.append({ runId, type: 'run_created', at, data: { workflowId: 'alpha', version: 1, definitionHash: 'h', workspaceDir: '.', input: { n: 1 } } });
  store.append({ runId, type: 'run_state_changed', at, data: { state: 'running' } });
  store.setRunProjection({ id: runId, workflowId: 'alpha', version: 1, state: 'running', inputRevision: 1, createdAt: at, updatedAt: at });
  store.flush();
  store.append({ runId, type: 'step_activated', at: at + 1, step: 'call', activation: 1, data: {} });
  store.append({ runId, type: 'attempt_started', at: at + 2, step: 'call', activation: 1, attempt: 1, data: { inputHash: 'i', input: {}, variant: null, effect: 'idempotent' } });
  store.append({ runId, type: 'attempt_failed', at: at + 30, step: 'call', activation: 1, attempt: 1, data: { error: { code: 'http_503', message: 'busy' }, retryable: true, meta: { cost: { amount: 0.25, currency: 'USD', basis: 'declared' } } } as never });
  store.append({ runId, type: 'attempt_started', at: at + 40, step: 'call', activation: 1, attempt: 2, data: { inputHash: 'i', input: {}, variant: null, effect: 'idempotent' } });
  store.append({ runId, type: 'attempt_succeeded', at: at + 90, step: 'call', activation: 1, attempt: 2, data: { output: { ok: true }, evidenceId: 'call/1.2', covers: { inputHash: 'i', definitionVersion: 1, inputRevision: 1 }, meta: { cost: { amount: 0.5, currency: 'USD', basis: 'declared' } } } });
  store.append({ runId, type: 'step_settled', at: at + 91, step: 'call', activation: 1, data: { outcome: 'succeeded', evidenceId: 'call/1.2', edges: [] } });
  store.flush();
}

/** Finishes `runId` in one commit. */
function finish(store: Store, runId: string, at: number): void {
  store.append({ runId, type: 'run_state_changed', at, data: { state: 'succeeded' } });
  store.setRunProjection({ id: runId, workflowId: 'alpha', version: 1, state: 'succeeded', inputRevision: 1, createdAt: at, updatedAt: at });
  store.flush();
}

/** The run's rollup as stored, and the fold of its stored log. */
function rolledUp(store: Store, runId: string): { row: unknown; fold: unknown } {
  const row = store.rolledUpMetricsOf(runId);
  return { row: row === undefined ? row : JSON.parse(row), fold: JSON.parse(JSON.stringify(runMetrics(store.readRunLog(runId)))) };
}

describe('a finished run rolled up from the log the store wrote', () => {
  it('reads nothing back for a run it created, and its rollup equals the fold of the stored log', () => {
    const store = open(storePath());
    const reads = vi.spyOn(store, 'readRunLog');
    begin(store, 'r1', 1_000);
    finish(store, 'r1', 2_000);
    expect(reads).not.toHaveBeenCalled();
    const { row, fold } = rolledUp(store, 'r1');
    expect(row).toEqual(fold);
    expect((row as { finished: boolean }).finished).toBe(true);

    // A late event for the finished run (an operator's act) folds it again from the stored log.
    reads.mockClear();
    store.append({ runId: 'r1', type: 'run_state_changed', at: 3_000, data: { state: 'succeeded' }, reason: 'noted again' });
    store.flush();
    expect(reads).toHaveBeenCalledWith('r1');
    expect(rolledUp(store, 'r1').row).toEqual(rolledUp(store, 'r1').fold);
  });

  it('reads back a run another store created (a restarted engine), and one whose commit failed', () => {
    const path = storePath();
    const before = open(path);
    begin(before, 'r2', 1_000);
    const after = open(path);
    const reads = vi.spyOn(after, 'readRunLog');
    finish(after, 'r2', 2_000);
    expect(reads).toHaveBeenCalledWith('r2');
    expect(rolledUp(after, 'r2').row).toEqual(rolledUp(after, 'r2').fold);

    const store = open(path);
    const storeReads = vi.spyOn(store, 'readRunLog');
    begin(store, 'r3', 1_000);
    const raw = new Database(path);
    opened.push(raw);
    raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.reason = 'refused' BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
    store.append({ runId: 'r3', type: 'run_state_changed', at: 1_500, data: { state: 'paused' }, reason: 'refused' });
    expect(() => store.flush()).toThrow(/refused by test/);
    raw.exec('DROP TRIGGER refuse');
    finish(store, 'r3', 2_000);
    expect(storeReads).toHaveBeenCalledWith('r3');
    const { row, fold } = rolledUp(store, 'r3');
    expect(row).toEqual(fold);
    expect(store.readRunLog('r3').map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('what the written logs keep', () => {
  const event = (runId: string, seq: number): RunEvent => ({ runId, seq, at: seq, type: 'step_activated', step: 's', activation: 1, attempt: null, data: {}, reason: null }) as RunEvent;

  it('a log whole from seq 1, dropped past its run cap or on a gap; no new log past the total cap', () => {
    const logs = new WrittenLogs({ run: 3, total: 5 });
    logs.add(event('a', 2));
    expect(logs.of('a')).toBeUndefined();
    for (const seq of [1, 2, 3]) logs.add(event('a', seq));
    expect(logs.of('a')?.map((e) => e.seq)).toEqual([1, 2, 3]);
    logs.add(event('a', 4));
    expect(logs.of('a')).toBeUndefined();
    logs.add(event('a', 5));
    expect(logs.of('a')).toBeUndefined();

    logs.add(event('b', 1));
    logs.add(event('b', 3));
    expect(logs.of('b')).toBeUndefined();

    for (const id of ['c', 'd', 'e', 'f', 'g', 'h']) logs.add(event(id, 1));
    expect(logs.size).toEqual({ runs: 5, events: 5 });
    expect(logs.of('h')).toBeUndefined();
    logs.forget('c');
    logs.add(event('h', 1));
    expect(logs.of('h')?.length).toBe(1);
    expect(logs.size).toEqual({ runs: 5, events: 5 });
  });
});
