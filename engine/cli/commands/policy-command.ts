// `weft policy [show|check] [DIR] [--json]`: the workspace policy in force (weft.policy.json at
// the root of DIR, default the current folder), and every workflow of the workspace checked
// against it (docs/policies.md).
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import type { PolicySnapshot } from '../../../shared/policy/policy-schema.ts';
import { POLICY_FILE } from '../../../shared/policy/policy-schema.ts';
import { expandDefinitionPaths } from '../../definition/expand-definition-paths.ts';
import { DefinitionFileError } from '../../definition/definition-file-error.ts';
import { WorkspacePolicies } from '../../policy/workspace-policy-findings.ts';
import type { CliIo } from '../cli-io.ts';
import type { Command } from '../command.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../exit-codes.ts';
import { formatDiagnosticLine, formatFileSummary } from '../format-diagnostic.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';

/** One workflow file of `weft policy check --json`: the policy's findings on it, or why it could not be checked. */
export interface PolicyFileReport {
  file: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  error?: string;
}

export const policyCommand: Command = {
  name: 'policy',
  summary: 'show the workspace policy and check every workflow against it',
  usage: 'weft policy [show|check] [DIR] [--json]',
  help: `The workspace policy is ${POLICY_FILE} at the root of the workspace DIR (default: the
current folder); see docs/policies.md.

  show      (default) print the policy in force: the file, its hash (what a run
            snapshots and weft inspect shows) and its rules
  check     check every *.weft.json file directly inside DIR against the policy; one
            line per finding, FILE: STEP: CODE: MESSAGE (HINT), then a summary per file
  --json    show: {"file","hash","policy"} ("policy": null without a policy file);
            check: {"file","hash","files":[{"file","valid","diagnostics":[...]}]}

Exit status: 0 the policy is readable (show) or every workflow keeps it (check),
1 some workflow breaks it, 2 the policy file cannot be read or is not valid (its
findings are printed on stderr), or a usage error.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
    const [first, ...rest] = positionals;
    const action = first === 'show' || first === 'check' ? first : 'show';
    const dirs = first === 'show' || first === 'check' ? rest : positionals;
    if (dirs.length > 1) throw new UsageError(`give at most one workspace folder, not ${dirs.length}`);
    const dir = resolve(io.cwd, dirs[0] ?? '.');
    const policies = new WorkspacePolicies();
    const read = policies.policyOf(dir);
    if (!read.ok) {
      io.stderr.write(`weft policy: ${read.error.message}\n`);
      return EXIT_USAGE;
    }
    const file = join(dir, POLICY_FILE);
    if (action === 'show') {
      io.stdout.write(values.json === true ? `${JSON.stringify({ file, hash: read.policy?.hash ?? null, policy: read.policy?.rules ?? null }, null, 2)}\n` : formatPolicy(file, read.policy));
      return EXIT_OK;
    }
    return check(dir, file, read.policy, policies, values.json === true, io);
  },
};

async function check(dir: string, file: string, policy: PolicySnapshot | undefined, policies: WorkspacePolicies, json: boolean, io: CliIo): Promise<number> {
  const reports: PolicyFileReport[] = [];
  let exitCode = EXIT_OK;
  const { loadDefinitionFile } = await import('../../definition/load-definition-file.ts');
  for (const target of await expandDefinitionPaths([dir], io.cwd)) {
    if ('error' in target) {
      reports.push({ file: target.file, valid: false, diagnostics: [], error: target.error.message });
      exitCode = Math.max(exitCode, EXIT_USAGE);
      continue;
    }
    try {
      const loaded = await loadDefinitionFile(target.path);
      // A file that is not a valid workflow cannot be checked against the policy: weft validate says why.
      if (loaded.workflow === undefined) {
        reports.push({ file: target.file, valid: false, diagnostics: [], error: `${target.file} is not a valid workflow, so it cannot be checked against the policy; weft validate ${target.file} says why` });
        exitCode = Math.max(exitCode, EXIT_FAILED);
        continue;
      }
      const diagnostics = policies.findings(target.path, loaded.workflow);
      const valid = !diagnostics.some((d) => d.severity === 'error');
      reports.push({ file: target.file, valid, diagnostics });
      if (!valid) exitCode = Math.max(exitCode, EXIT_FAILED);
    } catch (e) {
      if (!(e instanceof DefinitionFileError)) throw e;
      reports.push({ file: target.file, valid: false, diagnostics: [], error: e.message });
      exitCode = Math.max(exitCode, EXIT_USAGE);
    }
  }
  if (json) {
    io.stdout.write(`${JSON.stringify({ file, hash: policy?.hash ?? null, files: reports }, null, 2)}\n`);
    return exitCode;
  }
  io.stdout.write(policy === undefined ? `no ${POLICY_FILE} in ${dir}: no policy applies\n` : `policy ${policy.hash} (${file})\n`);
  for (const r of reports) {
    if (r.error !== undefined) io.stderr.write(`weft policy: ${r.error}\n`);
    else io.stdout.write(`${[...r.diagnostics.map((d) => formatDiagnosticLine(r.file, d)), formatFileSummary(r.file, r.diagnostics)].join('\n')}\n`);
  }
  if (reports.length === 0) io.stdout.write(`no workflow files (*.weft.json) in ${dir}\n`);
  return exitCode;
}

/** The policy as a person reads it: file and hash, then each rule on a line. */
export function formatPolicy(file: string, policy: PolicySnapshot | undefined): string {
  if (policy === undefined) return `no ${POLICY_FILE} at ${file}: no policy applies (runs start without one)\n`;
  const r = policy.rules;
  const sel = (s: Record<string, readonly string[] | undefined> | undefined): string => {
    const parts = Object.entries(s ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${(v ?? []).join('|')}`);
    return parts.length === 0 ? 'every step' : parts.join(' and ');
  };
  const lines = [`policy ${policy.hash} (${file})`];
  if (r.description !== undefined) lines.push(r.description);
  for (const a of r.approvals ?? []) lines.push(`  approval    ${a.id}: ${sel(a.select)} need a person's approval on every path before them`);
  for (const a of r.retries ?? []) lines.push(`  retries     ${a.id}: ${sel(a.select)} at most ${a.maxAttempts} attempt${a.maxAttempts === 1 ? '' : 's'}`);
  for (const a of r.forbid ?? []) lines.push(`  forbid      ${a.id}: ${a.action} of ${sel(a.select)}`);
  for (const a of r.escalation ?? []) {
    const when = [a.afterFailures === undefined ? undefined : `${a.afterFailures} failed attempts`, a.afterMs === undefined ? undefined : `${a.afterMs} ms unfinished`].filter((x) => x !== undefined).join(' or ');
    lines.push(`  escalation  ${a.id}: ${sel(a.select)} after ${when}, to ${a.to}`);
  }
  for (const a of r.agents ?? []) lines.push(`  agents      ${a.id}: ${sel(a.select)} use providers ${a.providers?.join('|') ?? 'any'}, models ${a.models?.join('|') ?? 'any'}`);
  if (r.budgets !== undefined) lines.push(`  budgets     ${JSON.stringify(r.budgets)}`);
  if (r.sensitive !== undefined) lines.push(`  sensitive   openers: ${r.sensitive.openers.length === 0 ? 'nobody' : r.sensitive.openers.join('|')}`);
  if (lines.length === 1) lines.push('  (no rules)');
  return `${lines.join('\n')}\n`;
}
