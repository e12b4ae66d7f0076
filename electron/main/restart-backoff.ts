// How long to wait before restarting the engine. A single death is restarted at once (the
// desktop app promises the engine back within two seconds); an engine that keeps dying (a store
// another process holds, a deleted workspace, a broken install) is restarted more and more
// slowly, so it does not burn a core in a crash loop, and the log says why.

export const BACKOFF_WINDOW_MS = 30_000;
export const BACKOFF_AFTER_DEATHS = 5;
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

export interface RestartPlan {
  delayMs: number;
  /** Set when backing off: a sentence for the log. */
  reason?: string;
}

/**
 * @param deathsMs when the engine died (or failed to start), oldest first, this one included
 * @example restartPlan([1000, 1200, 1300, 1500, 1600], 1600, 100) // { delayMs: 1000, reason: ... }
 */
export function restartPlan(deathsMs: readonly number[], nowMs: number, restartDelayMs: number): RestartPlan {
  const recent = deathsMs.filter((t) => nowMs - t < BACKOFF_WINDOW_MS).length;
  if (recent < BACKOFF_AFTER_DEATHS) return { delayMs: restartDelayMs };
  const delayMs = Math.min(BACKOFF_MAX_MS, Math.max(restartDelayMs, BACKOFF_FIRST_MS * 2 ** (recent - BACKOFF_AFTER_DEATHS)));
  return {
    delayMs,
    reason: `the engine died ${recent} times within ${BACKOFF_WINDOW_MS / 1000} s, so the next restart waits ${formatSeconds(delayMs)}`,
  };
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
