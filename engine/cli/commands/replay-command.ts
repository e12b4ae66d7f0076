// `weft replay RUN --against FILE|WORKFLOW@VERSION [--script FILE] [--store URL|PATH | --db PATH]
// [--json]` and `weft replay --runs FILTER --against …`: a run's input on another definition, in
// virtual time, every call answered from the run's recordings (engine/evolution/replay-run.ts),
// stored apart as a run of kind replay, compared with the source (weft compare's text) and given a
// verdict. docs/evolution.md "Replay" is the contract: verdicts, exit codes, JSON shapes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ReplayBatchResult, ReplayFilter, ReplayResult } from '../../../shared/api/replay-result.ts';
import { RUN_STATES, type RunState } from '../../../shared/definition/names.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { CliIo } from '../cli-io.ts';
import { withUserErrors } from '../cli-errors.ts';
import type { Command } from '../command.ts';
import { formatComparison } from '../compare-text.ts';
import { diffSource, loadFileSide, loadStoredSide } from '../diff-source.ts';
import { withServiceAt } from '../engine-session.ts';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.ts';
import { InputError } from '../input-error.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storeName, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';
import { rebillEstimate, rebillLine } from '../../../shared/cost/rebill.ts';

/** A replay answers every call from its recordings: it says so where retry and fork say what they bill again. */
const REPLAY_BILLS_NOTHING = `${rebillLine(rebillEstimate('replay', { steps: [], workflow: { steps: [] } }, []))}\n`;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay a run (or many) on another version, from its recorded calls, and say what changes',
  usage: 'weft replay RUN|--runs FILTER --against FILE|WORKFLOW@VERSION [--script FILE] [--store URL|PATH | --db PATH] [--json]',
  help: `Runs RUN's input on another definition of its workflow, in virtual time, without touching
the outside world: every call of a step that does work (http, command, script, agent) is answered
by RUN's recorded attempt of that step with the same input (judged by its input hash), after the
time it took; a person's decision is the one RUN recorded for the same input; the events RUN got
arrive when they came. Operator actions of RUN are not replayed. A call with no recording (a new
step, a changed input, more calls than recorded) stops the replay: the verdict is "incomplete"
and names the step. The replay is stored as a run of kind replay: \`weft inspect\`, \`weft events\`
and \`weft compare\` open it; \`weft runs --kind replay\` lists it; no other list or stat counts it.
While a \`weft serve\` owns the store, that server replays (this command sends it the definition).

Prints the comparison of RUN (A) with its replay (B), as \`weft compare\` does, then the verdict:
  same        the same end state, and no step differs
  fixed       RUN did not succeed (failed, needs attention, waiting), the replay succeeded
  changed     both succeeded and differ, or neither did and they differ (still failing, differently)
  regressed   RUN succeeded, the replay did not
  incomplete  a call needs a recording

  --against FILE|WORKFLOW@VERSION   the definition to replay on: a file, or a version of the store
  --runs FILTER   replay many runs: workflow=ID[,state=STATE][,step=FAILING_STEP][,limit=N]
                  (newest first, default limit 50); prints one row per run and a summary line
  --script FILE   answers for calls with no recording: a JSON object of scripted outcomes by
                  step id, as a scenario's "steps" (docs/scenarios.md), or a scenario file
${storeFlagsHelp(18)}
  --json          print {"replayRunId","sourceRunId","against":{"workflowId","version"|"file",
                  "definitionHash"},"verdict","needsRecording"?:{"stepId","reason","path"?,"why"},
                  "sourceState","replayState","comparison"} (comparison: weft compare --json);
                  with --runs {"against","rows":[{"sourceRunId","replayRunId","sourceState",
                  "replayState","verdict","group","failingStep","note"}],"counts","summary"}

Exit status: 0 every replay is "same", 1 any other verdict, 2 usage error, an unknown run, a file
that is not a definition, a definition of another workflow, or a replay given as RUN.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      against: { type: 'string' },
      runs: { type: 'string' },
      script: { type: 'string' },
      store: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean' },
    });
    const filter = values.runs === undefined ? undefined : parseFilter(values.runs);
    if (filter === undefined && positionals.length !== 1) throw new UsageError(`give exactly one run to replay (got ${positionals.length}), or --runs FILTER`);
    if (filter !== undefined && positionals.length > 0) throw new UsageError('give a run or --runs FILTER, not both');
    if (values.against === undefined) throw new UsageError('--against FILE|WORKFLOW@VERSION is required: the definition to replay on');
    const against = values.against;
    const json = values.json === true;
    const db = storePath(values, io.cwd);
    return withUserErrors('replay', io, async () => {
      const [{ scriptFrom }, { ReplayScript }] = await Promise.all([import('../../evolution/replay-against.ts'), import('../../../shared/scenario/replay-script.ts')]);
      const scripted = values.script === undefined ? undefined : readScript(values.script, io.cwd, ReplayScript.safeParse);
      const script = scriptFrom(scripted);
      const source = diffSource(against, '--against', (p) => resolve(io.cwd, p));
      const file = source.kind === 'file' ? await loadFileSide(source) : undefined;
      // A `weft serve` that owns the store replays there (one store owner): the CLI sends content only.
      const sent = source.kind === 'stored' ? { workflowId: source.workflowId, version: source.version } : { definition: file, name: source.arg };
      const forwarded = await forward(db, { ...(filter === undefined ? { run: positionals[0] ?? '' } : { filter }), against: sent, ...(scripted === undefined ? {} : { script: scripted }) });
      if (forwarded !== undefined) return 'rows' in forwarded ? printBatch(io, forwarded, json) : printOne(io, forwarded, json);
      const store = await storeName(db, io.cwd);
      return withServiceAt(db, 'replay', io, async (service) => {
        const workflow: Workflow = file ?? (source.kind === 'stored' ? loadStoredSide(source, service.reader, store) : failNoSide());
        const side = source.kind === 'file' ? { workflow, file: source.arg } : { workflow, version: source.version };
        if (filter !== undefined) return printBatch(io, await service.replayMany(filter, side, script), json);
        return printOne(io, await service.replay(positionals[0] ?? '', side, script), json);
      });
    });
  },
};

type Forward = { run: string } | { filter: ReplayFilter };

/** The replay done by the `weft serve` that owns the store, if one does; undefined to do it here. */
async function forward(db: string, request: Forward & { against: unknown; script?: unknown }): Promise<ReplayResult | ReplayBatchResult | undefined> {
  const [{ storeOwner }, api] = await Promise.all([import('../store-owner.ts'), import('../../../shared/api/replay-result.ts')]);
  const owner = await storeOwner(db);
  if (owner === undefined) return undefined;
  const body = { against: request.against, ...(request.script === undefined ? {} : { script: request.script }) };
  const sent = 'run' in request
    ? await owner.post(`/api/runs/${encodeURIComponent(request.run)}/replay`, body, api.ReplayResult)
    : await owner.post('/api/replays', { ...body, filter: request.filter }, api.ReplayBatchResult);
  return sent.answered ? sent.value : undefined;
}

function failNoSide(): never {
  throw new Error('weft replay: the --against side was not loaded');
}

/** `workflow=ID,state=STATE,step=STEP,limit=N`: the runs of `weft runs`, by workflow, state and failing step. */
export function parseFilter(text: string): ReplayFilter {
  const out: { workflow?: string; state?: RunState; failingStep?: string; limit?: number } = {};
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (value === '') throw new UsageError(`--runs: "${part}" has no value; write KEY=VALUE (workflow=ID,state=STATE,step=STEP,limit=N)`);
    if (key === 'workflow') out.workflow = value;
    else if (key === 'state') {
      const state = RUN_STATES.find((s) => s === value);
      if (state === undefined) throw new UsageError(`--runs: state "${value}" is not a run state (${RUN_STATES.join(', ')})`);
      out.state = state;
    } else if (key === 'step') out.failingStep = value;
    else if (key === 'limit') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 500) throw new UsageError(`--runs: limit takes a whole number from 1 to 500, not "${value}"`);
      out.limit = n;
    } else throw new UsageError(`--runs: unknown filter "${key}"; use workflow, state, step or limit`);
  }
  if (out.workflow === undefined) throw new UsageError('--runs needs workflow=ID: the workflow whose runs to replay');
  return { ...out, workflow: out.workflow };
}


/** A --script file: a JSON object of scripted outcomes by step id, or a scenario file (its "steps"). */
function readScript<T>(arg: string, cwd: string, parse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(resolve(cwd, arg), 'utf8'));
  } catch (e) {
    throw new InputError(`--script ${arg}: ${(e as Error).message}`);
  }
  const scenario = typeof raw === 'object' && raw !== null && 'steps' in raw && ('expect' in raw || 'name' in raw);
  const steps = scenario ? (raw as { steps: unknown }).steps : raw;
  const parsed = parse(steps);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InputError(`--script ${arg}: not scripted outcomes by step id${issue === undefined ? '' : ` (at $${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message})`}; see docs/scenarios.md "steps"`);
}

function printOne(io: CliIo, r: ReplayResult, json: boolean): number {
  if (json) io.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    io.stdout.write(formatComparison(r.comparison));
    if (r.needsRecording !== undefined) io.stdout.write(`Needs a recording: ${r.needsRecording.why}\n`);
    io.stdout.write(REPLAY_BILLS_NOTHING);
    io.stdout.write(`Replay ${r.replayRunId} of ${r.sourceRunId} on ${againstText(r.against)}: ${r.verdict}\n`);
  }
  return r.verdict === 'same' ? EXIT_OK : EXIT_FAILED;
}

function printBatch(io: CliIo, b: ReplayBatchResult, json: boolean): number {
  if (json) io.stdout.write(`${JSON.stringify(b)}\n`);
  else {
    const rows = [['run', 'was', 'verdict', 'replay', 'failing step / first difference'], ...b.rows.map((r) => [r.sourceRunId, r.sourceState, r.verdict, r.replayRunId, r.note ?? r.failingStep ?? ''])];
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
    for (const row of rows) io.stdout.write(`${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()}\n`);
    io.stdout.write(`Replayed ${b.rows.length} run${b.rows.length === 1 ? '' : 's'} on ${againstText(b.against)}: ${b.summary}\n`);
    io.stdout.write(REPLAY_BILLS_NOTHING);
  }
  return b.rows.every((r) => r.verdict === 'same') ? EXIT_OK : EXIT_FAILED;
}

const againstText = (a: ReplayResult['against']): string => (a.file !== undefined ? a.file : `${a.workflowId}@${a.version ?? '?'}`);
