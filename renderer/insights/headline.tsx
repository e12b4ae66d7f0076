// The workflow's headline figures from the report: runs, success rate, run duration p50/p95, and
// the retry, compensation and intervention rates.
import type { WorkflowStats } from '../../shared/api/workflow-stats.ts';
import { formatDuration } from '../core/format.ts';

/** 0.6667 → "66.7%", null → "–": the CLI's rounding, so the page and `weft stats` agree. */
export const formatRate = (r: number | null): string => (r === null ? '–' : `${Math.round(r * 1000) / 10}%`);

export function Headline({ stats }: { stats: WorkflowStats }) {
  const states = Object.entries(stats.states).filter(([, n]) => n > 0);
  const items: { id: string; label: string; value: string; sub: string }[] = [
    { id: 'runs', label: 'Runs', value: String(stats.runs), sub: states.map(([s, n]) => `${n} ${s.replace('_', ' ')}`).join(' · ') },
    { id: 'success', label: 'Success', value: formatRate(stats.successRate), sub: `of ${stats.finished} finished` },
    { id: 'p50', label: 'Duration p50', value: stats.durationMs === null ? '–' : formatDuration(stats.durationMs.p50), sub: 'finished runs' },
    { id: 'p95', label: 'Duration p95', value: stats.durationMs === null ? '–' : formatDuration(stats.durationMs.p95), sub: stats.durationMs === null ? '' : `max ${formatDuration(stats.durationMs.max)}` },
    { id: 'retry', label: 'Retried', value: formatRate(stats.retryRate), sub: `${stats.totals.retries} retries` },
    { id: 'compensation', label: 'Compensated', value: formatRate(stats.compensationRate), sub: `${stats.totals.compensations} steps offset` },
    { id: 'intervention', label: 'A person acted', value: formatRate(stats.humanInterventionRate), sub: `${stats.totals.humanInterventions} acts` },
  ];
  return (
    <dl className="insights-headline">
      {items.map((i) => (
        <div key={i.id} className="insights-figure" data-figure={i.id}>
          <dt>{i.label}</dt>
          <dd className="insights-value" data-testid={`insights-${i.id}`}>
            {i.value}
          </dd>
          <dd className="insights-sub">{i.sub}</dd>
        </div>
      ))}
    </dl>
  );
}
