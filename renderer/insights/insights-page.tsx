// Insights of one workflow, from the report of `weft stats` (GET /api/stats/:id): headline
// figures, rates over time, what the runs cost (per day, per successful run, the priciest steps), the graph with branch frequencies on its edges and step latencies on
// its nodes, and each recent run's time split. A version picker narrows it to one version.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import type { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { WorkflowDetail } from '../../shared/api/workflow-views.ts';
import type { StatsClient } from '../api/stats-client.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from '../core/query-keys.ts';
import { messageOf } from '../core/query-client.ts';
import { fetchWorkflowDetail, fetchWorkflowVersion } from '../core/workflow-queries.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import { graphStats } from './graph-stats.ts';
import { Headline } from './headline.tsx';
import { CostCard } from './cost-card.tsx';
import { RatesChart } from './rates-chart.tsx';
import { ratesFromBuckets, ratesOverTime, type Bucketing, type RatesOverTime } from './rates-over-time.ts';
import { TimeSplitBars } from './time-split-bars.tsx';
import { timeSplitRows } from './time-split.ts';
import './insights.css';

/** How many of the newest runs the time split lists. */
export const SPLIT_RUNS = 20;
const NO_DIAGNOSTICS: never[] = [];

interface Props {
  workflowId: string;
  onOpenRun: (runId: string) => void;
  /** The report's source; by default the engine this page was opened from. */
  stats?: StatsClient;
}

type Loaded = { report: WorkflowReport | null; graph: Workflow | null; detail: WorkflowDetail | null };

function bucketLabel(start: number, by: Bucketing): string {
  const d = new Date(start);
  if (by === 'day' || by === 'week') return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/**
 * Rates over time of every run: from the listed runs when the report lists them all, else from
 * the server's counts of all runs by start (bucketed in this viewer's zone, asked with `tz`).
 */
function pageRates(report: WorkflowReport): RatesOverTime {
  if ((report.runsOmitted ?? 0) > 0 && report.runsOverTime !== undefined) return ratesFromBuckets(report.runsOverTime, bucketLabel);
  return ratesOverTime(report.runs, new Date().getTimezoneOffset(), bucketLabel);
}

export function InsightsPage({ workflowId, onOpenRun, stats }: Props) {
  const [version, setVersion] = useState<number | undefined>(undefined);
  useEffect(() => {
    document.title = `Insights · ${workflowId} · Weft Studio`;
  }, [workflowId]);
  // Figures over every run: read when the page opens and when Refresh is pressed, not live.
  const query = useQuery({
    queryKey: keys.stats(workflowId, version),
    staleTime: 0,
    queryFn: async (): Promise<Loaded> => {
        const source = stats ?? requireClients().stats;
        const [report, detail] = await Promise.all([source.report(workflowId, version, { tz: new Date().getTimezoneOffset() }), fetchWorkflowDetail(workflowId).catch(() => null)]);
        // The report counts steps and edges of the version asked for, else of the latest that ran.
        const shown = version ?? (report === null ? undefined : Math.max(...report.stats.versions));
        const file = detail?.definition ?? null;
        let graph: Workflow | null = null;
        if (shown !== undefined) {
          const snapshot = (await fetchWorkflowVersion(workflowId, shown)).definition;
          graph = file !== null && file.version === shown && file.layout !== undefined ? { ...snapshot, layout: file.layout } : snapshot;
        }
        return { report, graph, detail };
    },
  });
  const loaded = query.data ?? null;
  const error = query.error === null ? null : messageOf(query.error);

  const report = loaded?.report ?? null;
  const rates = useMemo(() => (report === null ? null : pageRates(report)), [report]);
  const marks = useMemo(() => (report === null ? null : graphStats(report)), [report]);
  const split = useMemo(() => (report === null ? [] : timeSplitRows(report.runs, SPLIT_RUNS)), [report]);
  const versions = (loaded?.detail?.versions ?? []).filter((v) => (v.runCount ?? 0) > 0 || v.source === 'run').map((v) => v.version);

  return (
    <div className="page insights" data-testid="insights">
      <div className="page-head">
        <h1 className="page-title">
          Insights <span className="muted">· {loaded?.detail?.summary.name ?? workflowId}</span>
        </h1>
        <div className="page-actions">
          {versions.length > 1 ? (
            <label className="insights-version">
              <span className="faint">version</span>
              <select className="input" value={version ?? ''} onChange={(e) => setVersion(e.target.value === '' ? undefined : Number(e.target.value))} data-testid="insights-version">
                <option value="">all versions</option>
                {versions.map((v) => (
                  <option key={v} value={v}>
                    v{v}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="button" className="button" onClick={() => void query.refetch()} data-testid="insights-refresh">
            <RefreshCw size={14} aria-hidden="true" /> Refresh
          </button>
        </div>
      </div>
      <p className="page-sub">
        Folded from the event log of every run of <span className="mono">{workflowId}</span>
        {version === undefined ? '' : ` v${version}`}: the same figures as <span className="mono">weft stats {workflowId}</span>.
      </p>
      {error !== null ? (
        <div className="error-box" role="alert">
          Could not load the insights of {workflowId}: {error}
        </div>
      ) : null}
      {loaded === null && error === null ? <div className="loading">Loading the figures of {workflowId}…</div> : null}
      {loaded !== null && (report === null || report.stats.runs === 0) ? (
        <div className="empty" data-testid="insights-empty">
          <h2>No runs of {workflowId} yet</h2>
          <p>
            Insights are folded from runs. Start one with <span className="mono">weft run {workflowId}.weft.json</span>, or from the editor.
          </p>
        </div>
      ) : null}
      {report !== null && report.stats.runs > 0 && rates !== null ? (
        <>
          <Headline stats={report.stats} />
          <section className="insights-card" data-testid="insights-rates">
            <RatesChart rates={rates} />
          </section>
          <section className="insights-card" data-testid="insights-cost">
            <CostCard cost={report.stats.cost} />
          </section>
          <section className="insights-card insights-graph-card" data-testid="insights-graph">
            <div className="insights-caption">
              Branches and step latency · edges: how often taken when their step decides (the band under an edge: the share of runs that took it) · steps: p50 and p95 from activation to settlement
            </div>
            <div className="insights-graph">
              {loaded?.graph != null && marks !== null ? (
                <WorkflowGraph workflow={loaded.graph} diagnostics={NO_DIAGNOSTICS} stats={marks} />
              ) : (
                <div className="loading">Loading the definition…</div>
              )}
            </div>
          </section>
          <section className="insights-card" data-testid="insights-split">
            <TimeSplitBars rows={split} total={report.stats.runs} onOpenRun={onOpenRun} />
          </section>
        </>
      ) : null}
    </div>
  );
}
