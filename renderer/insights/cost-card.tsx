// What the workflow's runs cost (docs/insights.md, "Cost"): the total and its tokens, the cost
// per successful run, cost per UTC day as bars (recharts), and the most expensive steps, each
// with its share of the total as an HTML bar. Every figure is the report's (`weft stats`).
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { WorkflowCostStats } from '../../shared/api/cost-stats.ts';
import { formatCost } from '../../shared/cost/run-cost.ts';
import { costlySteps, costOverTime, COST_DAYS } from './cost-over-time.ts';
import { formatRate } from './headline.tsx';
import { useThemeColors } from './use-theme-colors.ts';

/** How many steps the ranking lists. */
export const COSTLY_STEPS = 6;

const tokens = (n: number): string => n.toLocaleString('en-US');

export function CostCard({ cost }: { cost: WorkflowCostStats }) {
  const c = useThemeColors();
  if (cost.days.length === 0) {
    return (
      <div className="cost-empty" data-testid="insights-cost-empty">
        <h2 className="insights-caption">Cost</h2>
        <p className="muted">
          No attempt of these runs recorded a cost or tokens. Agent steps are priced from their token usage by the workspace’s <span className="mono">weft.prices.json</span>; other steps may declare a <span className="mono">cost.perCall</span>.
        </p>
      </div>
    );
  }
  const money = (x: number | null): string => (x === null ? '–' : formatCost(x, cost.currency));
  const points = costOverTime(cost);
  const steps = costlySteps(cost, COSTLY_STEPS);
  const figures = [
    { id: 'cost-total', label: 'Cost', value: money(cost.total), sub: `${tokens(cost.inputTokens)} in · ${tokens(cost.outputTokens)} out tokens` },
    { id: 'cost-per-success', label: 'Per successful run', value: money(cost.perSuccessfulRun), sub: 'average of the runs that succeeded' },
    { id: 'cost-per-success-all', label: 'All spend per success', value: money(cost.perSuccess), sub: 'failed runs’ cost included' },
  ];
  return (
    <>
      <dl className="cost-figures">
        {figures.map((f) => (
          <div key={f.id} className="cost-figure">
            <dt>{f.label}</dt>
            <dd className="insights-value" data-testid={`insights-${f.id}`}>
              {f.value}
            </dd>
            <dd className="insights-sub">{f.sub}</dd>
          </div>
        ))}
      </dl>
      <div className="cost-grid">
        <figure className="insights-chart" aria-label="cost per day">
          <figcaption className="insights-caption">Cost over time · by UTC day{points.length === COST_DAYS ? ` · the newest ${COST_DAYS}` : ''}</figcaption>
          <ResponsiveContainer width="100%" height={200}>
            <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" stroke={c.axis} tick={{ fill: c.axis, fontSize: 11 }} tickLine={false} minTickGap={16} />
              <YAxis tickFormatter={(v: number) => money(v)} stroke={c.axis} tick={{ fill: c.axis, fontSize: 11 }} width={64} />
              <Tooltip
                formatter={(value) => [money(typeof value === 'number' ? value : null), 'cost']}
                labelFormatter={(l, payload) => {
                  const p = payload[0]?.payload as (typeof points)[number] | undefined;
                  return p === undefined ? String(l) : `${p.day} · ${p.attempts} billed attempts · ${tokens(p.inputTokens + p.outputTokens)} tokens`;
                }}
                contentStyle={{ background: c.surface, border: `1px solid ${c.border}`, borderRadius: 6, fontSize: 12, color: c.text }}
                labelStyle={{ color: c.text, fontWeight: 600 }}
                itemStyle={{ color: c.text }}
                cursor={{ fill: c.grid, opacity: 0.4 }}
              />
              <Bar dataKey="total" name="cost" fill={c.cost} maxBarSize={28} radius={[3, 3, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
        <figure className="insights-chart" aria-label="most expensive steps">
          <figcaption className="insights-caption">Most expensive steps · of all runs</figcaption>
          <table className="cost-steps">
            <thead>
              <tr>
                <th>Step</th>
                <th className="cost-share-head">Share</th>
                <th className="num">Cost</th>
                <th className="num">Per attempt</th>
                <th className="num">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {steps.map((s) => (
                <tr key={s.stepId} data-testid={`insights-cost-step-${s.stepId}`} title={`${s.stepId}: ${money(s.total)} over ${s.attempts} attempts; ${tokens(s.inputTokens)} in, ${tokens(s.outputTokens)} out tokens`}>
                  <td className="mono cost-step">{s.stepId}</td>
                  <td>
                    <div className="cost-share">
                      <span className="cost-share-bar" aria-hidden="true">
                        <span style={{ width: `${Math.max(s.share * 100, s.total > 0 ? 2 : 0)}%` }} />
                      </span>
                      <span className="faint">{formatRate(s.share)}</span>
                    </div>
                  </td>
                  <td className="num" data-testid={`insights-cost-step-total-${s.stepId}`}>
                    {money(s.total)}
                  </td>
                  <td className="num faint">{money(s.perAttempt)}</td>
                  <td className="num faint">{tokens(s.inputTokens + s.outputTokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      </div>
    </>
  );
}
