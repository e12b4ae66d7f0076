// `weft migrate RUN… --to VERSION|WORKFLOW@VERSION|FILE`, or `weft migrate --all WORKFLOW[@VERSION]
// --to …`: moves running runs to another version of their workflow. One plan line per run (safe,
// needs decision, refused, with each decision and refusal named), then the safe ones are applied,
// one run_migrated event each. --dry-run prints only the plans. docs/evolution.md "Migration".
import { resolve } from 'node:path';
import { MigrationReport, type MigrationPlan } from '../../../shared/api/migration.ts';
import { WORKFLOW_ID_PATTERN } from '../../../shared/definition/names.ts';
import type { MigrationTarget } from '../../evolution/migration-apply.ts';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { diffSource, loadFileSide } from '../diff-source.ts';
import { withServiceAt } from '../engine-session.ts';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

/** `OLD=NEW` pairs of a repeated flag, as a record; a UsageError naming the flag for a bad one. */
function pairs(flag: string, values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const at = v.indexOf('=');
    if (at <= 0 || at === v.length - 1) throw new UsageError(`--${flag} ${v}: expected ${flag === 'map' ? 'OLD=NEW (step ids)' : 'STEP=skip|run'}`);
    out[v.slice(0, at)] = v.slice(at + 1);
  }
  return out;
}

function decisions(values: readonly string[] | undefined): Record<string, 'skip' | 'run'> {
  const out: Record<string, 'skip' | 'run'> = {};
  for (const [step, choice] of Object.entries(pairs('decide', values))) {
    if (choice !== 'skip' && choice !== 'run') throw new UsageError(`--decide ${step}=${choice}: the choice is skip or run`);
    out[step] = choice;
  }
  return out;
}

const VERDICT_TEXT: Record<MigrationPlan['verdict'], string> = { safe: 'safe', needs_decision: 'needs decision', refused: 'refused' };

/** The plan lines of one run: its verdict, then what it names. */
export function formatMigrationPlan(plan: MigrationPlan, applied: boolean, error: string | undefined): string {
  const head = `${plan.runId}  ${plan.workflowId} v${plan.fromVersion} → v${plan.toVersion}  ${VERDICT_TEXT[plan.verdict]}${applied ? ', migrated' : ''}${error === undefined ? '' : `, not migrated: ${error}`}`;
  const renamed = Object.entries(plan.mapping).filter(([o, n]) => o !== n).map(([o, n]) => `${o} → ${n}`);
  const lines = [
    ...(renamed.length > 0 ? [`  mapped: ${renamed.join(', ')}`] : []),
    ...(plan.added.length > 0 ? [`  new steps: ${plan.added.join(', ')}`] : []),
    ...(plan.dropped.length > 0 ? [`  dropped steps: ${plan.dropped.join(', ')}`] : []),
    ...plan.refusals.map((r) => `  refused (${r.code}): ${r.message}`),
    ...plan.decisions.map((d) => `  ${d.choice === null ? 'decide' : `decided ${d.choice}`}: ${d.message}`),
    ...plan.notes.map((n) => `  note: ${n}`),
  ];
  return `${[head, ...lines].join('\n')}\n`;
}

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'move running runs to another version of their workflow, after checking each one',
  usage: 'weft migrate RUN… --to VERSION|WORKFLOW@VERSION|FILE [--map OLD=NEW]… [--decide STEP=skip|run]… [--dry-run] [--json] [--store URL|PATH | --db PATH]\n       weft migrate --all WORKFLOW[@VERSION] --to VERSION|FILE [same options]',
  help: `Moves each RUN (an id or unique prefix), or with --all every unfinished run of WORKFLOW (of
VERSION only, when given), to another version of its workflow. --to is a version number of the
run's workflow, WORKFLOW@VERSION (as the store keeps it: run, or saved from the app), or a
definition file (the version is the file's "version"; it is stored when the first run moves).

Steps map by id; --map OLD=NEW names a renamed step. Each run is checked and gets a verdict:
  safe            it can move
  needs decision  a new step comes before work the run has done: --decide STEP=skip leaves it
                  out of this run, --decide STEP=run runs it now (the work after it is not redone)
  refused         an active or waiting step has no counterpart of the same kind; the new version
                  reads a field a completed step's stored output lacks; an external step whose
                  outcome is unknown or in flight would change its config; a changed join can no
                  longer be met; a loop is past its new bound; the run has finished
One plan line per run is printed, then the safe ones are migrated: one run_migrated event each,
in one transaction per run; a run that is not migrated is untouched.

  --dry-run   print the plans and change nothing
${storeFlagsHelp(14)}
  --json      print {"dryRun","toVersion","runs":[{"plan":{...},"applied","error"?}]}
  --by WHO    who migrates (default $WEFT_USER, else the OS user); --reason TEXT why

Exit status: 0 every run migrated (with --dry-run: every plan safe), 1 some run refused or
needing a decision (or its migration failed), 2 bad usage or an error.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      to: { type: 'string' },
      all: { type: 'string' },
      map: { type: 'string', multiple: true },
      decide: { type: 'string', multiple: true },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      store: { type: 'string' },
      db: { type: 'string' },
      by: { type: 'string' },
      reason: { type: 'string' },
    });
    if (values.to === undefined) throw new UsageError('--to is required: a version number, WORKFLOW@VERSION or a definition file');
    if (values.all === undefined && positionals.length === 0) throw new UsageError('give the runs to migrate, or --all WORKFLOW[@VERSION]');
    if (values.all !== undefined && positionals.length > 0) throw new UsageError('give runs or --all, not both');
    const map = pairs('map', values.map);
    const decide = decisions(values.decide);
    let all: { workflowId: string; version?: number } | undefined;
    if (values.all !== undefined) {
      const [id, version, extra] = values.all.split('@');
      if (id === undefined || !WORKFLOW_ID_PATTERN.test(id) || extra !== undefined || (version !== undefined && !/^[1-9][0-9]{0,8}$/.test(version))) {
        throw new UsageError(`--all ${values.all}: expected WORKFLOW or WORKFLOW@VERSION`);
      }
      all = version === undefined ? { workflowId: id } : { workflowId: id, version: Number(version) };
    }
    const to = values.to;
    const json = values.json === true;
    const path = storePath(values, io.cwd);
    return withUserErrors('migrate', io, async () => {
      let target: MigrationTarget;
      let workflowOfTarget: string | undefined;
      if (/^[1-9][0-9]{0,8}$/.test(to)) target = { kind: 'version', version: Number(to) };
      else {
        const side = diffSource(to, '--to', (a) => resolve(io.cwd, a));
        if (side.kind === 'stored') {
          target = { kind: 'version', version: side.version, workflowId: side.workflowId };
          workflowOfTarget = side.workflowId;
        } else target = { kind: 'definition', workflow: await loadFileSide(side) };
      }
      if (all !== undefined && workflowOfTarget !== undefined && workflowOfTarget !== all.workflowId) throw new UsageError(`--to ${to} is a version of "${workflowOfTarget}", not of ${all.workflowId}`);
      const report = await withServiceAt(path, 'migrate', io, async (service) => {
        const o = { map, decide, dryRun: values['dry-run'] === true, ...(values.by === undefined ? {} : { by: values.by }), ...(values.reason === undefined ? {} : { reason: values.reason }) };
        return MigrationReport.parse(await service.migrate(all ?? positionals, target, o));
      });
      if (json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        for (const r of report.runs) io.stdout.write(formatMigrationPlan(r.plan, r.applied, r.error));
        const applied = report.runs.filter((r) => r.applied).length;
        io.stdout.write(report.dryRun ? `dry run: ${report.runs.filter((r) => r.plan.verdict === 'safe').length} of ${report.runs.length} runs can move; nothing was changed\n` : `migrated ${applied} of ${report.runs.length} runs to v${report.toVersion}\n`);
      }
      const ok = report.runs.every((r) => (report.dryRun ? r.plan.verdict === 'safe' : r.applied));
      return ok ? EXIT_OK : EXIT_FAILED;
    });
  },
};
