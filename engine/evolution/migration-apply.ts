// Migrating runs (weft migrate, POST /api/runs/:id/migrate): each run is planned against the
// target version (migration-plan.ts); a safe plan is applied as one run_migrated event in the
// run's next engine tick, planned again there against the run as it is then, so a run that moved
// on since (a person decided, an attempt ended) is judged as it is. One run at a time, each in
// its own commit: a run refused, or whose migration fails, leaves the run untouched and never
// stops the others. The engine/service entry is EngineService.migrate.
import type { MigrationReport, MigrationResult } from '../../shared/api/migration.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import type { Engine } from '../runtime/engine.ts';
import { sha256 } from '../store/canonical-json.ts';
import { definitionContent } from '../store/definition-content.ts';
import type { Store } from '../store/store.ts';
import { StoreError } from '../store/store-error.ts';
import { planMigration, type MigrationRequest } from './migration-plan.ts';

export interface MigrationDeps {
  store: Store;
  engine: Engine;
  /** The run's model folded from its log (the reader's fold). */
  fold(runId: string): RunModel;
  now(): number;
}

export interface MigrateOptions extends MigrationRequest {
  dryRun?: boolean;
  by: string;
  reason?: string;
}

/** The target of a migration: a version stored here (run or saved), or a definition given (a file). */
export type MigrationTarget = { kind: 'version'; version: number; workflowId?: string } | { kind: 'definition'; workflow: Workflow };

/** The definition of `target` for `workflowId`; a StoreError ('bad-input') naming what is missing. */
export function targetDefinition(store: Store, workflowId: string, target: MigrationTarget): Workflow {
  if (target.kind === 'definition') return target.workflow;
  const id = target.workflowId ?? workflowId;
  const stored = store.definitions.version(id, target.version);
  if (stored === undefined) {
    const known = store.definitions.history(id).map((v) => v.version);
    throw new StoreError('bad-input', `workflow "${id}" has no version ${target.version} in this store${known.length > 0 ? ` (versions: ${known.join(', ')})` : ''}: save it from the editor, run it once, or give the file with --to FILE`);
  }
  return stored.workflow;
}

/**
 * Plans, and unless `dryRun` applies, the migration of each run of `runIds` (ids, resolved) to
 * `target`. Every run gets its line; only safe plans are applied.
 */
export async function migrateRuns(deps: MigrationDeps, runIds: readonly string[], target: MigrationTarget, o: MigrateOptions): Promise<MigrationReport> {
  const runs: MigrationResult[] = [];
  let toVersion = target.kind === 'version' ? target.version : target.workflow.version;
  let saved = false;
  for (const runId of runIds) {
    const before = deps.fold(runId);
    const to = targetDefinition(deps.store, before.workflow.id, target);
    toVersion = to.version;
    const hash = sha256(definitionContent(to));
    const plan = planMigration(before, to, hash, o);
    if (o.dryRun === true || plan.verdict !== 'safe') {
      runs.push({ plan, applied: false });
      continue;
    }
    try {
      // The snapshot the event names is stored before the first run moves to it (a version that
      // has run is immutable: a file whose content differs from a stored one is refused here).
      if (!saved) deps.store.saveDefinition(to, deps.now());
      saved = true;
      await deps.engine.migrate(runId, (model) => {
        const now = planMigration(model, to, hash, o);
        if (now.verdict !== 'safe') {
          throw new StoreError('refused', `run ${runId} changed while it was planned: ${now.refusals.map((r) => r.message).join('; ') || 'a decision is needed'}`);
        }
        const decisions: Record<string, 'skip' | 'run'> = {};
        for (const d of now.decisions) if (d.choice !== null) decisions[d.step] = d.choice;
        return {
          data: { fromVersion: model.workflow.version, toVersion: to.version, definitionHash: hash, mapping: now.mapping, decisions, by: o.by, definition: to, fromDefinition: model.workflow },
          reason: `migrated from version ${model.workflow.version} to ${to.version} by ${o.by}${o.reason === undefined ? '' : `: ${o.reason}`}`,
        };
      });
      runs.push({ plan, applied: true });
    } catch (e) {
      runs.push({ plan, applied: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return { dryRun: o.dryRun === true, toVersion, runs };
}
