// `weft bulk ACTION (FILTER FLAGS | --filter K=V,… | RUN…) [--dry-run] [--json]`: one operator
// action on many runs (engine/service/bulk-run.ts). A dry run reads the store read-only and says
// per run what would happen; otherwise each run is acted on in turn, one line printed per run as
// it goes, and a refused run never stops the others. Exit 0 when every selected run was (or would
// be) acted on, 1 when some were refused, 2 on a usage error or a store that cannot be used.
import { BULK_ACTIONS, BulkResult as BulkResultSchema, bulkCounts, type BulkRequest, type BulkResult, type BulkRow } from '../../../shared/api/bulk-action.ts';
import { ServiceError } from '../../service/service-error.ts';
import type { StoreOwner } from '../store-owner.ts';
import { Unparsed } from '../../../shared/api/unparsed.ts';
import type { CliIo } from '../cli-io.ts';
import { withUserErrors } from '../cli-errors.ts';
import type { Command } from '../command.ts';
import { withReadOnlyStore, withServiceAt } from '../engine-session.ts';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readRunInput } from '../run-input.ts';
import { storeFlagsHelp, storePath, type StoreFlags } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

/** The filter's flags, each also a key of --filter, and the BulkFilter field it sets. */
const FILTER_KEYS = { workflow: 'workflow', version: 'version', state: 'state', 'failing-step': 'failingStep', 'created-after': 'createdAfter', 'created-before': 'createdBefore', limit: 'limit' } as const;
type FilterKey = keyof typeof FILTER_KEYS;
const isFilterKey = (k: string): k is FilterKey => Object.hasOwn(FILTER_KEYS, k);

const OPTIONS = {
  store: { type: 'string' },
  db: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  by: { type: 'string' },
  reason: { type: 'string' },
  step: { type: 'string' },
  as: { type: 'string' },
  evidence: { type: 'string' },
  on: { type: 'string' },
  to: { type: 'string' },
  filter: { type: 'string' },
  workflow: { type: 'string' },
  version: { type: 'string' },
  state: { type: 'string' },
  'failing-step': { type: 'string' },
  'created-after': { type: 'string' },
  'created-before': { type: 'string' },
  limit: { type: 'string' },
} as const;

/** The filter from --filter 'k=v,…' and the single flags; a key given twice is the user's to fix. */
function filterOf(values: Partial<Record<FilterKey | 'filter', string | boolean>>): Record<string, string> | undefined {
  const filter: Record<string, string> = {};
  const set = (key: string, value: string, from: string): void => {
    if (!isFilterKey(key)) throw new UsageError(`--filter: unknown key "${key}"; the keys are ${Object.keys(FILTER_KEYS).join(', ')}`);
    const field = FILTER_KEYS[key];
    if (field in filter) throw new UsageError(`${from}: "${key}" is given twice`);
    filter[field] = value;
  };
  if (typeof values.filter === 'string') {
    for (const part of values.filter.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      const eq = part.indexOf('=');
      if (eq < 1) throw new UsageError(`--filter takes KEY=VALUE pairs separated by commas (such as workflow=record-update,state=failed), not "${part}"`);
      set(part.slice(0, eq).trim(), part.slice(eq + 1).trim(), '--filter');
    }
  }
  for (const key of Object.keys(FILTER_KEYS)) {
    if (!isFilterKey(key)) continue;
    const v = values[key];
    if (typeof v === 'string') set(key, v, `--${key}`);
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}

function line(row: BulkRow, index: number, total: number): string {
  const head = `[${index + 1}/${total}] ${row.runId}  ${row.workflowId} v${row.version}  ${row.status.padEnd(7)}`;
  if (row.status === 'refused') return `${head}  ${row.reason ?? ''}\n`;
  return `${head}  ${row.what ?? ''}${row.status === 'done' && row.state !== undefined ? ` -> ${row.state}` : ''}\n`;
}

function summary(r: BulkResult): string {
  if (r.counts.selected === 0) return 'no runs match the selection; nothing was changed\n';
  const acted = r.dryRun ? `${r.counts.would} would ${r.action}` : `${r.counts.done} done`;
  return `${r.counts.selected} run${r.counts.selected === 1 ? '' : 's'}: ${acted}, ${r.counts.refused} refused${r.dryRun ? ' (dry run: nothing was changed)' : ''}\n`;
}

const exitOf = (r: BulkResult): number => (r.counts.refused > 0 ? EXIT_FAILED : EXIT_OK);

export const bulkCommand: Command = {
  name: 'bulk',
  summary: 'retry, resolve, cancel, replay or migrate many runs at once, selected by a filter',
  usage: 'weft bulk retry|resolve|cancel|replay|migrate (--workflow ID --state STATE … | --filter K=V,… | RUN…) [--step STEP] [--as succeeded|failed] [--evidence JSON|@file] [--on VERSION] [--to VERSION] [--dry-run] [--json] [--reason TEXT] [--by NAME] [--store URL|PATH | --db PATH]',
  help: `Acts on every run a filter selects (newest first), or on the RUNs named, one after another.
A run the action does not fit is refused with the reason, and the others go on.

Actions:
  retry      each run's failed steps (or --step STEP), as weft retry RUN STEP does
  resolve    each run's one unknown step (or --step STEP) --as succeeded|failed
             [--evidence JSON|@file], as weft resolve does
  cancel     each run, as weft cancel does
  replay     each run --on VERSION of its workflow, in virtual time from its recorded
             calls, as weft replay RUN --against WORKFLOW@VERSION does (the run is not
             changed; the row says the verdict and the replay run)
  migrate    each unfinished run --to VERSION, when its plan is safe, as weft migrate
             RUN --to VERSION does (renames and decisions: weft migrate --map/--decide)

Selection (every one given must hold; also as --filter 'workflow=ID,state=failed,…'):
  --workflow ID          runs of this workflow
  --version N            of this version of it
  --state STATE          in this state (running, waiting, needs_attention, paused, failed, …)
  --failing-step STEP    that went wrong at this step (as the runs list names it)
  --created-after TIME   created at or after TIME (2026-12-02 or 2026-12-02T14:00:00Z)
  --created-before TIME  created before TIME
  --limit N              at most N runs (default 100, at most 1000)

  --dry-run    say per run what would happen, change nothing
${storeFlagsHelp(15)}
  --json       print {"action","dryRun","rows":[{"runId","workflowId","version","action",
               "status":"would"|"done"|"refused","what"?,"reason"?,"state"?}],"counts":{…}}

Exit status: 0 every selected run was (or would be) acted on, 1 some were refused,
2 bad usage (an unknown action, a bad filter) or a store that cannot be used.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    const [action, ...runs] = positionals;
    if (action === undefined) throw new UsageError(`give the action: ${BULK_ACTIONS.join(', ')}`);
    if (!BULK_ACTIONS.some((a) => a === action)) throw new UsageError(`unknown action "${action}"; the actions are ${BULK_ACTIONS.join(', ')}`);
    const filter = filterOf(values);
    if ((filter === undefined) === (runs.length === 0)) throw new UsageError(filter === undefined ? 'say which runs: give filter flags (--workflow, --state, …), --filter, or run ids' : 'give either filter flags or run ids, not both');
    if (values.as !== undefined && action !== 'resolve') throw new UsageError('--as is for resolve only');
    if (values.evidence !== undefined && action !== 'resolve') throw new UsageError('--evidence is for resolve only');
    if (values.step !== undefined && action !== 'retry' && action !== 'resolve') throw new UsageError('--step is for retry and resolve');
    if (values.on !== undefined && action !== 'replay') throw new UsageError('--on is for replay only');
    if (values.to !== undefined && action !== 'migrate') throw new UsageError('--to is for migrate only');
    if (action === 'replay' && values.on === undefined) throw new UsageError('give the version to replay on: --on VERSION');
    if (action === 'migrate' && values.to === undefined) throw new UsageError('give the version to move to: --to VERSION');
    if (action === 'replay' && (values.by !== undefined || values.reason !== undefined)) throw new UsageError('--by and --reason are not for replay: a replay changes no run');
    if (action === 'resolve' && values.as !== 'succeeded' && values.as !== 'failed') throw new UsageError('--as succeeded or --as failed is required');
    const request = {
      action,
      ...(filter === undefined ? { runs } : { filter }),
      ...(values.step === undefined ? {} : { step: values.step }),
      ...(values.as === undefined ? {} : { as: values.as }),
      ...(values.evidence === undefined ? {} : { evidence: readRunInput(values.evidence, io.cwd, '--evidence') }),
      ...(values.on === undefined ? {} : { version: values.on }),
      ...(values.to === undefined ? {} : { toVersion: values.to }),
      ...(action === 'replay' ? {} : { by: actor(values.by) }),
      ...(values.reason === undefined ? {} : { reason: values.reason }),
    };
    // The service parses it (shared/api/bulk-action.ts): a bad filter value is named by its field.
    const unparsed = new Unparsed<typeof BulkRequest>(request);
    if (values['dry-run'] === true) return preview(io, values, unparsed, values.json === true);
    const { filter: _filter, runs: _runs, ...settings } = { filter: undefined, runs: undefined, ...request };
    return apply(io, values, unparsed, settings, values.json === true);
  },
};

async function preview(io: CliIo, flags: StoreFlags, request: Unparsed<typeof BulkRequest>, json: boolean): Promise<number> {
  return withReadOnlyStore('bulk', io, flags, async (reader) => {
    const { bulkPreview } = await import('../../service/bulk-run.ts');
    const result = await bulkPreview(reader, request, Date.now());
    if (json) io.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      result.rows.forEach((row, i) => io.stdout.write(line(row, i, result.rows.length)));
      io.stdout.write(summary(result));
    }
    return exitOf(result);
  });
}

async function apply(io: CliIo, flags: StoreFlags, request: Unparsed<typeof BulkRequest>, settings: Record<string, unknown>, json: boolean): Promise<number> {
  const path = storePath(flags, io.cwd);
  const print = (row: BulkRow, i: number, n: number): void => {
    if (!json) io.stdout.write(line(row, i, n));
  };
  return withUserErrors('bulk', io, async () => {
    const [{ bulkApply }, { storeOwner }] = await Promise.all([import('../../service/bulk-run.ts'), import('../store-owner.ts')]);
    // A `weft serve` that owns the store acts for the terminal, run by run, as the app has it do.
    const owner = await storeOwner(path);
    const served = owner === undefined ? undefined : await applyThrough(owner, request, settings, print);
    const result = served ?? (await withServiceAt(path, 'bulk', io, (service) => bulkApply(service, request, print)));
    io.stdout.write(json ? `${JSON.stringify(result)}\n` : summary(result));
    return exitOf(result);
  });
}

/**
 * The bulk action by the server that owns the store: its preview names the runs, then each is
 * applied by a request of its own, printed as it comes. Undefined when the server was gone before
 * it took the preview (the command then runs here).
 */
async function applyThrough(owner: StoreOwner, request: Unparsed<typeof BulkRequest>, settings: Record<string, unknown>, print: (row: BulkRow, i: number, n: number) => void): Promise<BulkResult | undefined> {
  const previewed = await owner.post('/api/bulk/preview', request.value, BulkResultSchema);
  if (!previewed.answered) return undefined;
  const ids = previewed.value.rows.map((r) => r.runId);
  const rows: BulkRow[] = [];
  for (const runId of ids) {
    const one = await owner.post('/api/bulk/apply', { ...settings, runs: [runId] }, BulkResultSchema);
    if (!one.answered) throw new ServiceError('internal', `the weft serve that owns the store (${owner.url}) stopped after ${rows.length} of ${ids.length} runs; the rest were not acted on: look with weft runs`);
    for (const row of one.value.rows) {
      rows.push(row);
      print(row, rows.length - 1, ids.length);
    }
  }
  return { action: previewed.value.action, dryRun: false, rows, counts: bulkCounts(rows) };
}
