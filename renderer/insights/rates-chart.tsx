// Success, retry, compensation and intervention rates over time (recharts), with the number of
// runs in each bucket as faint bars on a second axis so a 100% of one run reads as such.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RatesOverTime } from './rates-over-time.ts';
import { useThemeColors } from './use-theme-colors.ts';

const SERIES = [
  { key: 'success', name: 'success (of finished)' },
  { key: 'retry', name: 'retried' },
  { key: 'compensation', name: 'compensated' },
  { key: 'intervention', name: 'a person acted' },
] as const;

const BY_TEXT: Record<RatesOverTime['by'], string> = { minute: 'by minute', hour: 'by hour', day: 'by day', week: 'by week', runs: 'by run, in order' };

const percent = (v: unknown): string => (typeof v === 'number' ? `${Math.round(v * 1000) / 10}%` : '–');

export function RatesChart({ rates }: { rates: RatesOverTime }) {
  const c = useThemeColors();
  const data = rates.points.map((p) => ({ ...p }));
  return (
    <figure className="insights-chart" aria-label={`rates over time, ${BY_TEXT[rates.by]}`}>
      <figcaption className="insights-caption">Rates over time · {BY_TEXT[rates.by]}</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" stroke={c.axis} tick={{ fill: c.axis, fontSize: 11 }} tickLine={false} minTickGap={16} />
          <YAxis yAxisId="rate" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={percent} stroke={c.axis} tick={{ fill: c.axis, fontSize: 11 }} width={44} />
          <YAxis yAxisId="runs" orientation="right" allowDecimals={false} stroke={c.axis} tick={{ fill: c.axis, fontSize: 11 }} width={32} />
          <Tooltip
            formatter={(value, name) => (name === 'runs' ? [String(value), 'runs'] : [percent(value), name])}
            contentStyle={{ background: c.surface, border: `1px solid ${c.border}`, borderRadius: 6, fontSize: 12, color: c.text }}
            labelStyle={{ color: c.text, fontWeight: 600 }}
            // The series' own colours are lines, too light for text (the legend pairs them with names).
            itemStyle={{ color: c.text }}
            cursor={{ fill: c.grid, opacity: 0.4 }}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: c.text }} iconType="plainline" />
          <Bar yAxisId="runs" dataKey="runs" name="runs" fill={c.runs} barSize={18} isAnimationActive={false} />
          {SERIES.map((s) => (
            <Line
              key={s.key}
              yAxisId="rate"
              type="linear"
              dataKey={s.key}
              name={s.name}
              stroke={c[s.key]}
              strokeWidth={2}
              dot={{ r: 3, fill: c[s.key], strokeWidth: 0 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
