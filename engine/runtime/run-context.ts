// What expressions read in a run: its input, the steps' outputs, the run's own facts, and
// `$activation`, the evaluating step's activation number. Artifact references in the steps'
// outputs are read through (engine/artifacts/read-through.ts): loaded when an expression reaches them.
import type { ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import { readThrough, readThroughEntries, type ReadThrough } from '../artifacts/read-through.ts';
import { ACTIVATION, type RunContext } from './expressions.ts';
import type { LiveRun } from './live-run.ts';

/** How a context reads references: `sensitive` for a step that declares `readsSensitive`, `read` to hear which it read; `raw` reads none. */
export type ContextReads = { sensitive: boolean; read?: ArtifactRef[] } | 'raw';

export function runContext(live: LiveRun, extra: Record<string, unknown> = {}, activation?: number, artifacts?: ArtifactStore, reads: ContextReads = { sensitive: false }): RunContext {
  const m = live.model;
  // The `run` object is rebuilt only when the input revision changes, not per expression.
  if (live.runInfo?.inputRevision !== m.inputRevision) {
    live.runInfo = { id: m.runId, workflowId: m.workflow.id, version: m.workflow.version, inputRevision: m.inputRevision, startedAt: new Date(m.createdAt).toISOString() };
  }
  const through = artifacts === undefined || reads === 'raw' ? undefined : { store: artifacts, ...reads };
  const steps = through === undefined ? m.view : readThroughEntries(m.view, through);
  const ctx: RunContext = { input: m.input, steps, run: live.runInfo, ...(through === undefined ? extra : {}), ...(activation === undefined ? {} : { [ACTIVATION]: activation }) };
  if (through !== undefined) for (const [k, v] of Object.entries(extra)) readLazily(ctx, k, v, through);
  return ctx;
}

/**
 * `ctx[key]` as `v` read through, loaded when an expression first reaches it: an artifact that
 * cannot be read fails that expression (an edge's condition, a step's input), as a reference
 * inside `steps` does, never the engine's tick.
 */
function readLazily(ctx: RunContext, key: string, v: unknown, through: ReadThrough): void {
  let read: { value: unknown } | undefined;
  Object.defineProperty(ctx, key, { enumerable: true, configurable: true, get: () => (read ??= { value: readThrough(v, through) }).value });
}
