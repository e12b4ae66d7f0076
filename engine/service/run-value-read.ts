// One value of a run by its value path (GET /api/runs/:id/value; shared/api/value-path.ts), read
// by the server's read worker from the run's model (folded-runs.ts keeps it, run-snapshots.ts
// spares a big run's cold fold) or by a RunReader on the caller's thread. It built the run's full
// RunDetail (every attempt of every step) on the engine's thread before, 1.3 to 1.8 s on a run of
// 100,000 events; now only the part the path goes into is built: the summary, and every attempt
// of the one step the path names when it goes into its attempts.
import { DETAIL_VALUE_LIMIT, INLINE_CHILD_BYTES } from '../../shared/api/read-limits.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import type { RunValue, RunValueQuery } from '../../shared/api/run-value.ts';
import { formatValuePath, parseValuePath, type PathSegment } from '../../shared/api/value-path.ts';
import { shapeValue } from '../../shared/run/elide-values.ts';
import { runDetail, stepAttempts } from '../../shared/run/run-detail.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { valueAt, valueInEvent, type ValueAt } from '../../shared/run/value-at.ts';
import type { Store } from '../store/store.ts';
import { ServiceError } from './service-error.ts';

/** Where the value's run comes from: the read worker's kept models, or a RunReader's fold (read-model.ts RunModels is one). */
export interface ValueModels {
  resolveRunId(idOrPrefix: string): string;
  fold(runId: string): RunModel;
}

/**
 * The value at `q.path` in the run, whole or cut as the query says. A malformed path is bad
 * input; a path to nothing is not found.
 */
export function runValueOf(store: Store, models: ValueModels, idOrPrefix: string, q: RunValueQuery): RunValue {
  const segments = parseValuePath(q.path);
  if (!Array.isArray(segments)) throw new ServiceError('bad-input', `the value path "${q.path.slice(0, 200)}": ${segments.message}`, 'path');
  const runId = models.resolveRunId(idOrPrefix);
  const found = segments[0] === 'events' ? valueInStoredEvent(store, runId, segments) : valueAt(detailFor(models.fold(runId), segments), segments);
  if (!found.found) throw new ServiceError('not-found', `no value at ${q.path.slice(0, 200)} in run ${runId}: ${found.message}`, 'path');
  return shapeValue(found.value, formatValuePath(segments), {
    ...(q.depth === undefined ? {} : { depth: q.depth }),
    ...(q.offset === undefined ? {} : { offset: q.offset }),
    ...(q.limit === undefined ? {} : { limit: q.limit }),
    inlineBytes: INLINE_CHILD_BYTES,
    stringLimit: DETAIL_VALUE_LIMIT,
  });
}

/**
 * As much of the run's RunDetail as `segments` can reach, each part as the full detail has it: a
 * path into one step's attempts gets that step's every attempt (they are addressed by their place
 * in the whole list); other paths the summary, which differs from the full detail only in the
 * attempts; a path that takes in every step at once (`steps`) the full detail.
 */
export function detailFor(model: RunModel, segments: readonly PathSegment[]): RunDetail {
  const [head, stepId] = segments;
  if (head === 'steps' && stepId === undefined) return runDetail(model);
  const summary = runDetail(model, { latestAttempts: 0 });
  if (head !== 'steps' || typeof stepId !== 'string') return summary;
  const s = model.steps.get(stepId);
  if (s === undefined) return summary;
  return {
    ...summary,
    steps: summary.steps.map((d) => {
      if (d.id !== stepId) return d;
      const { attemptCount: _count, ...step } = d;
      return { ...step, attempts: stepAttempts(model, stepId, 0, s.attempts.length) };
    }),
  };
}

/** A value inside one stored event (`events[SEQ].data...`): what an elided events page points at. */
function valueInStoredEvent(store: Store, runId: string, segments: readonly PathSegment[]): ValueAt {
  const seq = segments[1];
  if (typeof seq !== 'number' || seq < 1) return { found: false, message: 'address an event by its seq, as events[SEQ].data.output' };
  const { runId: _r, ...event } = store.readEvents(runId, { after: seq - 1, limit: 1 })[0] ?? { runId, seq: 0 };
  if (event.seq !== seq) return { found: false, message: `run ${runId} has no event ${seq}` };
  return valueInEvent(event, segments.slice(2));
}
