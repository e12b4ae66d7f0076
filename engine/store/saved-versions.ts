// A workflow's versions as the store keeps them: the snapshots runs used (`definitions`,
// immutable) and the versions saved from the app that have not run (`saved_versions`, migration
// 8). Together they are the workflow's history: every version that was saved or run.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { definitionHash } from './definition-content.ts';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { snapshotWorkflow } from './definition-snapshot.ts';
import { REPLAY_VERSION_BASE } from './replay-version.ts';

/** One version of a workflow's history. */
export interface VersionRecord {
  version: number;
  /** The definition hash (layout and $schema left out), as `definitions` stores it. */
  definitionHash: string;
  /** When the run snapshot was stored, or for a version that has not run, when it was last saved. */
  savedAtMs: number;
  /** `run`: a run used it, so it is immutable; `saved`: saved, never run. */
  source: 'run' | 'saved';
  runCount: number;
}

/** One stored version with its definition. */
export interface StoredDefinitionVersion extends VersionRecord {
  workflow: Workflow;
}

/**
 * Records a version saved from the app; a version saved before under the same number and not run
 * since is replaced. Saving the same text again changes nothing (its time stays that of the first save). Refused when a run used this number with other content: a version that has
 * run is immutable (the caller saves under a new number instead).
 *
 * @example
 * recordSavedVersion(db, workflow, formatDefinition(workflow), Date.now());
 */
export function recordSavedVersion(db: Db, workflow: Workflow, text: string, now: number): void {
  const hash = definitionHash(workflow);
  db.transaction(() => {
    const ran = db.prepare('SELECT hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflow.id, workflow.version) as { hash: string } | undefined;
    if (ran !== undefined && ran.hash !== hash) {
      throw new StoreError('definition-conflict', `workflow "${workflow.id}" version ${workflow.version} has already run with different content; a version that has run is immutable: save it as version ${latestVersion(db, workflow.id) + 1}`);
    }
    db.prepare('INSERT INTO saved_versions (workflow_id, version, hash, content, saved_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workflow_id, version) DO UPDATE SET hash = excluded.hash, content = excluded.content, saved_at = excluded.saved_at WHERE content IS NOT excluded.content').run(
      workflow.id,
      workflow.version,
      hash,
      text,
      now,
    );
  })();
}

/** The definition hash of the run snapshot of this version, if a run used it. */
export function runVersionHash(db: Db, workflowId: string, version: number): string | undefined {
  const row = db.prepare('SELECT hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflowId, version) as { hash: string } | undefined;
  return row?.hash;
}

/** The highest version number the store knows of the workflow, run or saved (0 for none). */
export function latestVersion(db: Db, workflowId: string): number {
  const row = db.prepare(`SELECT MAX(v) AS v FROM (SELECT MAX(version) AS v FROM definitions WHERE workflow_id = ? AND version < ${REPLAY_VERSION_BASE} UNION ALL SELECT MAX(version) FROM saved_versions WHERE workflow_id = ?)`).get(workflowId, workflowId) as {
    v: number | null;
  };
  return row.v ?? 0;
}

/** Every version of the workflow that was run or saved, oldest first, with its number of runs. */
export function versionHistory(db: Db, workflowId: string): VersionRecord[] {
  const rows = db
    .prepare(
      `SELECT version, hash, at, source, (SELECT COUNT(*) FROM runs WHERE runs.workflow_id = ? AND runs.version = v.version AND runs.kind = 'run') AS runs
       FROM (
         SELECT version, hash, created_at AS at, 'run' AS source FROM definitions WHERE workflow_id = ? AND version < ${REPLAY_VERSION_BASE}
         UNION ALL
         SELECT version, hash, saved_at, 'saved' FROM saved_versions s WHERE workflow_id = ?
           AND NOT EXISTS (SELECT 1 FROM definitions d WHERE d.workflow_id = s.workflow_id AND d.version = s.version)
       ) v ORDER BY version`,
    )
    .raw()
    .all(workflowId, workflowId, workflowId) as [number, string, number, 'run' | 'saved', number][];
  return rows.map(([version, definitionHash, savedAtMs, source, runCount]) => ({ version, definitionHash, savedAtMs, source, runCount }));
}

/**
 * One version of a workflow from either table: what `WORKFLOW@VERSION` names. A version that has
 * run is its run snapshot; its saved text (layout included) is preferred when it has the same
 * content, since the snapshot leaves layout out. Undefined when the store has neither.
 *
 * @example
 * const v3 = readDefinitionVersion(db, 'order-payment', 3)?.workflow;
 */
export function readDefinitionVersion(db: Db, workflowId: string, version: number): StoredDefinitionVersion | undefined {
  const record = versionHistory(db, workflowId).find((v) => v.version === version);
  if (record === undefined) return undefined;
  const saved = db.prepare('SELECT hash, content FROM saved_versions WHERE workflow_id = ? AND version = ?').get(workflowId, version) as { hash: string; content: string } | undefined;
  if (saved !== undefined && saved.hash === record.definitionHash) return { ...record, workflow: snapshotWorkflow(saved.content, workflowId, version) };
  const ran = db.prepare('SELECT content FROM definitions WHERE workflow_id = ? AND version = ?').get(workflowId, version) as { content: string };
  return { ...record, workflow: snapshotWorkflow(ran.content, workflowId, version) };
}
