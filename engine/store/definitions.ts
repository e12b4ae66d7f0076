// The definitions' job in the store: the snapshot of each version a run used (`definitions`,
// immutable once stored) and the versions saved from the app that have not run
// (`saved_versions`, saved-versions.ts). The Store owns one (store.definitions), so the service
// reads a workflow's history and saves versions through it, never with SQL of its own. A snapshot
// is parsed once per store: the runs of a version share one object (and the runtime's index of it).
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { sha256 } from './canonical-json.ts';
import { definitionContent } from './definition-content.ts';
import { snapshotWorkflow } from './definition-snapshot.ts';
import { latestVersion, readDefinitionVersion, recordSavedVersion, runVersionHash, versionHistory, type StoredDefinitionVersion, type VersionRecord } from './saved-versions.ts';
import { StoreError } from './store-error.ts';
import { REPLAY_VERSION_BASE } from './replay-version.ts';
import type { UnitOfWork } from './unit-of-work.ts';

export class Definitions {
  private readonly parsed = new Map<string, { workflow: Workflow; hash: string }>();

  /** Made by the Store, over its unit of work. */
  constructor(private readonly work: UnitOfWork) {}

  /**
   * Stores the snapshot of a version a run is about to use, or checks it against the one stored
   * (StoreError 'definition-conflict' when it differs); its hash. Store.saveDefinition.
   */
  saveSnapshot(workflow: Workflow, now: number): string {
    const text = definitionContent(workflow);
    const hash = sha256(text);
    const row = this.work.stmt('SELECT hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflow.id, workflow.version) as { hash: string } | undefined;
    if (row === undefined) {
      this.work.stmt('INSERT INTO definitions (workflow_id, version, hash, content, created_at) VALUES (?, ?, ?, ?, ?)').run(workflow.id, workflow.version, hash, text, now);
    } else if (row.hash !== hash) {
      throw new StoreError(
        'definition-conflict',
        `workflow "${workflow.id}" version ${workflow.version} has already run with different content; a version that has run is immutable: bump "version" to ${workflow.version + 1} (or higher) in the file`,
      );
    }
    return hash;
  }

  /** The run snapshot of a version and its hash, parsed once per store. Store.loadDefinition. */
  snapshot(workflowId: string, version: number): { workflow: Workflow; hash: string } | undefined {
    const key = `${workflowId}@${version}`;
    const hit = this.parsed.get(key);
    if (hit) return hit;
    const row = this.work.stmt('SELECT content, hash FROM definitions WHERE workflow_id = ? AND version = ?').get(workflowId, version) as { content: string; hash: string } | undefined;
    if (row === undefined) return undefined;
    const loaded = { workflow: snapshotWorkflow(row.content, workflowId, version), hash: row.hash };
    this.parsed.set(key, loaded);
    return loaded;
  }

  /** Workflow ids with a run snapshot, and the latest such version of each. Store.workflowVersions. */
  workflowVersions(): Map<string, number> {
    const rows = this.work.stmt(`SELECT workflow_id AS id, MAX(version) AS version FROM definitions WHERE version < ${REPLAY_VERSION_BASE} GROUP BY workflow_id ORDER BY workflow_id`).all() as { id: string; version: number }[];
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  /**
   * Records a version saved from the app (replacing an earlier save of that number that has not
   * run); refused with 'definition-conflict' when a run used the number with other content.
   *
   * @example store.definitions.recordSaved(workflow, formatDefinition(workflow), clock.now());
   */
  recordSaved(workflow: Workflow, text: string, now: number): void {
    recordSavedVersion(this.work.db, workflow, text, now);
  }

  /** The definition hash of the run snapshot of this version, if a run used it. */
  runVersionHash(workflowId: string, version: number): string | undefined {
    return runVersionHash(this.work.db, workflowId, version);
  }

  /** The highest version number the store knows of the workflow, run or saved (0 for none). */
  latestVersion(workflowId: string): number {
    return latestVersion(this.work.db, workflowId);
  }

  /** Every version of the workflow that was run or saved, oldest first, with its number of runs. */
  history(workflowId: string): VersionRecord[] {
    return versionHistory(this.work.db, workflowId);
  }

  /**
   * One version from either table, what `WORKFLOW@VERSION` names (its saved text, layout
   * included, when it has the run snapshot's content); undefined when the store has neither.
   *
   * @example const v3 = store.definitions.version('order-payment', 3)?.workflow;
   */
  version(workflowId: string, version: number): StoredDefinitionVersion | undefined {
    return readDefinitionVersion(this.work.db, workflowId, version);
  }
}
