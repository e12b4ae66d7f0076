// `weft stats [WORKFLOW] [--store URL|PATH | --db PATH] [--version N] [--runs N] [--json]`: a
// workflow's figures over its runs (rates, branch frequencies, step latencies, cost per day and
// step) and each run's time split, all folded from the event log (docs/metrics.md); without
// WORKFLOW, what every workflow cost, and each UTC day across them.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RunMetrics } from '../../metrics/run-metrics.ts';
import type { WorkflowReport } from '../../metrics/stats.ts';
import type { Percentiles } from '../../metrics/workflow-stats.ts';
import type { CostSummary, WorkflowCostStats } from '../../../shared/api/cost-stats.ts';
import { formatCost } from '../../../shared/cost/run-cost.ts';
import { InputError } from '../input-error.ts';
import type { Command } from '../command.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

export const statsCommand: Command = {
  name: 'stats',
  summary: "a workflow's success, retry, compensation and intervention rates, branch frequencies, step latencies and cost",
  usage: 'weft stats [WORKFLOW] [--store URL|PATH | --db PATH] [--version N] [--runs N] [--json]',
  help: `Figures of WORKFLOW (its id, or its .weft.json file) over all its runs in the store, folded
from the event log: success rate (of finished runs), retry, compensation and human-intervention
rates (of all runs), run duration p50/p95, per step its runs, attempts, retries, outcomes and
latency p50/p95 (activation to settlement), per edge how often it was taken when its source
decided it, and where failed runs went wrong; what the runs cost (total, tokens, per successful
run, per UTC day, and per step, the most expensive first). Then the newest runs, each with its
duration split into active, waiting, queued and attention time. docs/metrics.md defines every
figure.

Without WORKFLOW: what every workflow of the store cost (runs, cost, per successful run,
tokens), the most expensive first, and each UTC day's cost across them.

  --version N  only runs of that version (default: all versions)
  --runs N     how many of the newest runs to list (default 10; --json always has all)
${storeFlagsHelp(15)}
  --json       print {"asOf","stats":{...},"runs":[{...}]} (shapes in docs/metrics.md); without
               WORKFLOW {"asOf","total","currency","workflows":[{"workflowId","runs","cost"}],
               "days":[{"day","total","workflows":{...}}]}`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, version: { type: 'string' }, runs: { type: 'string' }, json: { type: 'boolean' } });
    const [target, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError('give one workflow (its id or its .weft.json file), or none for the cost of every workflow');
    const version = values.version === undefined ? undefined : Number(values.version);
    if (version !== undefined && (!Number.isInteger(version) || version < 1)) throw new UsageError('--version takes a whole number of at least 1');
    const listed = values.runs === undefined ? 10 : Number(values.runs);
    if (!Number.isInteger(listed) || listed < 0) throw new UsageError('--runs takes a whole number (0 for none)');
    if (target === undefined) {
      if (values.version !== undefined) throw new UsageError('--version needs a workflow: weft stats WORKFLOW --version N');
      return withReadOnlyStore('stats', io, values, (reader) => {
        const summary = reader.costSummary();
        io.stdout.write(values.json === true ? `${JSON.stringify(summary)}\n` : formatSummary(summary));
        return EXIT_OK;
      });
    }
    return withReadOnlyStore('stats', io, values, (reader) => {
      const workflowId = target.endsWith('.json') ? workflowIdOfFile(resolve(io.cwd, target)) : target;
      const { asOf, report } = reader.workflowReport(workflowId, version);
      io.stdout.write(values.json === true ? `${JSON.stringify({ asOf: new Date(asOf).toISOString(), ...report })}\n` : formatReport(report, listed));
      return EXIT_OK;
    });
  },
};

function workflowIdOfFile(path: string): string {
  // Only a regular file is read: opening a FIFO with no writer would wait for ever.
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isFile()) {
    const kind = stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a FIFO (a named pipe)' : 'a device or socket';
    throw new InputError(`${path} is ${kind}, not a regular file; give the file of a workflow, or its id`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new InputError(`cannot read the workflow id from ${path}: ${(e as Error).message}; give the file of a workflow, or its id`);
  }
  const id = parsed !== null && typeof parsed === 'object' && 'id' in parsed ? parsed.id : undefined;
  if (typeof id !== 'string' || id === '') throw new InputError(`${path} has no "id"; give the file of a workflow, or its id`);
  return id;
}

/** 1234 -> "1.2 s", 90 000 000 -> "1.0 d": durations as a person reads them. */
function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}

const pct = (r: number | null): string => (r === null ? '–' : `${Math.round(r * 1000) / 10}%`);
const pp = (p: Percentiles | null): [string, string] => (p === null ? ['–', '–'] : [formatMs(p.p50), formatMs(p.p95)]);

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

function formatReport({ stats: s, runs }: WorkflowReport, listed: number): string {
  const states = Object.entries(s.states).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ');
  const [d50, d95] = pp(s.durationMs);
  const lines = [
    `${s.workflowId}${s.versions.length > 0 ? ` (v${s.versions.join(', v')})` : ''}: ${s.runs} runs${states === '' ? '' : ` (${states})`}`,
    `success ${pct(s.successRate)} of ${s.finished} finished · retried ${pct(s.retryRate)} · compensated ${pct(s.compensationRate)} · a person acted ${pct(s.humanInterventionRate)}`,
    `run duration p50 ${d50}, p95 ${d95} (finished runs)`,
  ];
  const failures = Object.entries(s.failures);
  if (failures.length > 0) lines.push(`went wrong at: ${failures.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  lines.push('');
  const stepRows = [['step', 'runs', 'attempts', 'retries', 'p50', 'p95', 'outcomes']];
  for (const [id, x] of Object.entries(s.steps)) {
    const [p50, p95] = pp(x.latencyMs);
    stepRows.push([id, String(x.runs), String(x.attempts), String(x.retries), p50, p95, Object.entries(x.outcomes).map(([k, n]) => `${k} ${n}`).join(', ')]);
  }
  lines.push(...table(stepRows), '');
  const edgeRows = [['edge', 'taken', 'of', 'frequency']];
  for (const [id, x] of Object.entries(s.edges)) edgeRows.push([id, String(x.taken), String(x.decided), pct(x.frequency)]);
  lines.push(...table(edgeRows));
  lines.push('', ...costLines(s.cost));
  if (listed > 0 && runs.length > 0) {
    lines.push('', `newest ${Math.min(listed, runs.length)} of ${runs.length} runs:`);
    const runRows = [['run', 'state', 'duration', 'active', 'waiting', 'queued', 'attention', 'retries', 'comp.', 'people', 'went wrong at']];
    for (const r of [...runs].reverse().slice(0, listed)) runRows.push(runRow(r));
    lines.push(...table(runRows));
  }
  return `${lines.join('\n')}\n`;
}

/** The cost part: totals, per successful run, per UTC day, the most expensive steps (docs/metrics.md, "Cost"). */
function costLines(c: WorkflowCostStats): string[] {
  if (c.days.length === 0) return ['cost: no attempt recorded a cost or tokens'];
  const money = (x: number | null): string => (x === null ? '–' : formatCost(x, c.currency));
  const lines = [
    `cost ${money(c.total)} · ${tokens(c.inputTokens)} in, ${tokens(c.outputTokens)} out tokens · per successful run ${money(c.perSuccessfulRun)} · all spend per success ${money(c.perSuccess)}`,
    '',
    ...table([['day (UTC)', 'cost', 'attempts', 'tokens in', 'tokens out'], ...c.days.map((d) => [d.day, money(d.total), String(d.attempts), tokens(d.inputTokens), tokens(d.outputTokens)])]),
    '',
    ...table([['step', 'cost', 'share', 'attempts', 'tokens in', 'tokens out'], ...c.steps.map((x) => [x.stepId, money(x.total), c.total === 0 ? '–' : pct(x.total / c.total), String(x.attempts), tokens(x.inputTokens), tokens(x.outputTokens)])]),
  ];
  return lines;
}

const tokens = (n: number): string => n.toLocaleString('en-US');

/** Every workflow's cost, then each UTC day's across them. */
function formatSummary(c: CostSummary): string {
  if (c.workflows.length === 0) return 'no workflow has run in this store yet\n';
  const money = (x: number | null): string => (x === null ? '–' : formatCost(x, c.currency));
  const lines = [
    `cost of every workflow: ${money(c.total)}`,
    '',
    ...table([['workflow', 'runs', 'cost', 'per successful run', 'tokens in', 'tokens out'], ...c.workflows.map((w) => [w.workflowId, String(w.runs), money(w.cost.total), money(w.cost.perSuccessfulRun), tokens(w.cost.inputTokens), tokens(w.cost.outputTokens)])]),
  ];
  if (c.days.length > 0) {
    lines.push('', ...table([['day (UTC)', 'cost', 'by workflow'], ...c.days.map((d) => [d.day, money(d.total), Object.entries(d.workflows).map(([w, x]) => `${w} ${money(x)}`).join(', ')])]));
  }
  return `${lines.join('\n')}\n`;
}

function runRow(r: RunMetrics): string[] {
  return [
    r.runId,
    r.state,
    formatMs(r.durationMs),
    formatMs(r.activeMs),
    formatMs(r.waitingMs),
    formatMs(r.queueMs),
    formatMs(r.attentionMs),
    String(r.retries),
    String(r.compensations),
    String(r.humanInterventions),
    r.failure?.step == null ? '' : `${r.failure.step} (${r.failure.outcome ?? '?'})`,
  ];
}
