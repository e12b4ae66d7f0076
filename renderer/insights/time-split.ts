// Each run's time split (active, waiting, queued, attention) as shares of its own duration, for
// the stacked bars: newest first, the most recent `limit` runs. The four parts add up to the
// run's duration (docs/metrics.md), so the shares add up to 1.
import type { RunMetrics } from '../../shared/api/workflow-stats.ts';

export const SPLIT_PARTS = ['active', 'waiting', 'queued', 'attention'] as const;
export type SplitPart = (typeof SPLIT_PARTS)[number];

export interface SplitRow {
  runId: string;
  state: RunMetrics['state'];
  startedAt: number;
  durationMs: number;
  ms: Record<SplitPart, number>;
  /** ms ÷ duration, 0 for a run of no duration. */
  share: Record<SplitPart, number>;
}

export function timeSplitRows(runs: readonly RunMetrics[], limit: number): SplitRow[] {
  return [...runs]
    .sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? 1 : -1))
    .slice(0, limit)
    .map((r) => {
      const ms: Record<SplitPart, number> = { active: r.activeMs, waiting: r.waitingMs, queued: r.queueMs, attention: r.attentionMs };
      const total = r.durationMs;
      const share = (v: number) => (total <= 0 ? 0 : Math.max(0, v) / total);
      return {
        runId: r.runId,
        state: r.state,
        startedAt: r.startedAt,
        durationMs: total,
        ms,
        share: { active: share(ms.active), waiting: share(ms.waiting), queued: share(ms.queued), attention: share(ms.attention) },
      };
    });
}
