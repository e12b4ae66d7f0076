// Replays in the store (weft replay, issue 22): a replay's virtual run is written here whole, in
// one transaction, once it has ended or stopped: its definition snapshot, its events (with their
// virtual times) and its row in `runs`, of kind 'replay' (migration 13). The write goes around the
// unit of work on purpose: a replay gets no rollup (stats never count it), no step rows (nothing
// waits on it) and no live subscriber hears of it; the engine's reads of `runs` take kind 'run'
// only, so no engine ever resumes, schedules or limits by a replay.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { sha256 } from './canonical-json.ts';
import type { Db } from './db.ts';
import { definitionContent } from './definition-content.ts';
import { EVENT_COLUMNS } from './event-rows.ts';
import { REPLAY_VERSION_BASE } from './replay-version.ts';
import { StoreError } from './store-error.ts';
import type { RunState } from '../../shared/definition/names.ts';

/** A replay's virtual run, to be stored: its events as the virtual store wrote them. */
export interface ReplayRunRecord {
  runId: string;
  /** The definition it ran on; stored as its version when that content ran, else under a replay-only number. */
  workflow: Workflow;
  /** Its events in seq order, run_created first (with `replayOf`). */
  events: readonly RunEvent[];
  state: RunState;
}

/**
 * The version a replay's definition is stored under: the workflow's own version when a run used
 * that very content, else the replay-only number already given to that content, else the next
 * one from REPLAY_VERSION_BASE. Returns the version and the workflow as stored (its `version`
 * field that number, so the run folds with it).
 */
export function replayDefinitionSlot(db: Db, workflow: Workflow): { version: number; stored: Workflow; content: string; hash: string } {
  const own = definitionContent(workflow);
  const ran = db.prepare('SELECT hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflow.id, workflow.version) as { hash: string } | undefined;
  if (ran !== undefined && ran.hash === sha256(own)) return { version: workflow.version, stored: workflow, content: own, hash: ran.hash };
  // The same content stored for an earlier replay: its number again (the version field aside).
  const earlier = db.prepare('SELECT version, content FROM definitions WHERE workflow_id = ? AND version >= ? ORDER BY version').raw().all(workflow.id, REPLAY_VERSION_BASE) as [number, string][];
  for (const [version, content] of earlier) {
    const stored = { ...workflow, version };
    if (content === definitionContent(stored)) return { version, stored, content, hash: sha256(content) };
  }
  const last = earlier[earlier.length - 1]?.[0];
  const version = last === undefined ? REPLAY_VERSION_BASE : last + 1;
  const stored = { ...workflow, version };
  const content = definitionContent(stored);
  return { version, stored, content, hash: sha256(content) };
}

/** Writes a replay run whole (definition, events, row), in one transaction; refused if the id is taken. */
export function saveReplayRun(db: Db, record: ReplayRunRecord, now: number): void {
  const created = record.events[0];
  if (created?.type !== 'run_created' || created.data.replayOf === undefined) throw new StoreError('bad-input', `replay ${record.runId} must start with its run_created event naming the run it replays`);
  db.transaction(() => {
    if (db.prepare('SELECT 1 FROM runs WHERE id = ?').get(record.runId) !== undefined || db.prepare('SELECT 1 FROM events WHERE run_id = ? LIMIT 1').get(record.runId) !== undefined) {
      throw new StoreError('refused', `run id ${record.runId} is taken; replay again`);
    }
    const slot = replayDefinitionSlot(db, record.workflow);
    db.prepare('INSERT OR IGNORE INTO definitions (workflow_id, version, hash, content, created_at) VALUES (?, ?, ?, ?, ?)').run(record.workflow.id, slot.version, slot.hash, slot.content, now);
    const insert = db.prepare(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const [k, e] of record.events.entries()) {
      const data = k === 0 && e.type === 'run_created' ? { ...e.data, version: slot.version, definitionHash: slot.hash } : e.data;
      insert.run(record.runId, k + 1, e.at, e.type, e.step, e.activation, e.attempt, JSON.stringify(data), e.reason);
    }
    const last = record.events[record.events.length - 1];
    db.prepare("INSERT INTO runs (id, workflow_id, version, state, input_revision, created_at, updated_at, kind) VALUES (?, ?, ?, ?, 1, ?, ?, 'replay')").run(
      record.runId,
      record.workflow.id,
      slot.version,
      record.state,
      created.at,
      last?.at ?? created.at,
    );
  })();
}

/** Whether the run is a replay (its row says kind 'replay'). */
export function isReplayRun(db: Db, runId: string): boolean {
  const row = db.prepare('SELECT kind FROM runs WHERE id = ?').get(runId) as { kind: string } | undefined;
  return row?.kind === 'replay';
}
