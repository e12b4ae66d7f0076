// Which runs an engine sharing its store (workers on PostgreSQL, docs/scale-out.md) gives back after
// a commit, and when another engine should take each up again. An intake engine (`weft serve
// --no-worker`) gives back every run with nothing in flight, to be taken at once. A worker gives
// back a run that only waits (on a person, an event, an operator: state waiting, paused or
// needs_attention) and whose next timer is far off: it is taken up again when that timer is due
// (or never, until someone acts on it), so any process can act on a waiting run, and a worker does
// not hold thousands of idle runs. A run with anything in flight, queued for a slot, or a timer
// this engine cannot date (a budget day's) stays.
import type { LiveRun } from './live-run.ts';

export type { ReleasedRun } from './live-run.ts';

/** A worker keeps a run whose next timer is due sooner than this (giving it back would cost more than it saves). */
export const KEEP_IF_DUE_WITHIN_MS = 60_000;

/**
 * When `live` may be given back after this commit (undefined: keep it). `intake`: given back as
 * soon as nothing is in flight, to be taken at once (0).
 *
 * @example releaseWake(live, Date.now(), { intake: false }) // null for a run waiting on a person with no timer
 */
export function releaseWake(live: LiveRun, now: number, o: { intake: boolean; keepWithinMs?: number }): number | null | undefined {
  if (live.busy || live.running.size > 0 || live.inbox.length > 0 || live.actions.length > 0 || live.waiters.length > 0) return undefined;
  if (o.intake) return 0;
  const m = live.model;
  if (live.ready.length > 0 || live.due.length > 0 || live.dirty.size > 0 || m.queued) return undefined;
  if (m.state !== 'waiting' && m.state !== 'paused' && m.state !== 'needs_attention') return undefined;
  let next: number | undefined = live.escalations.timer?.at;
  for (const key of live.timers.keys()) {
    const due = live.dues.get(key);
    if (due === undefined) return undefined;
    next = next === undefined ? due : Math.min(next, due);
  }
  if (next === undefined) return null;
  return next - now < (o.keepWithinMs ?? KEEP_IF_DUE_WITHIN_MS) ? undefined : next;
}
