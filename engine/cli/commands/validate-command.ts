// `weft validate FILE|DIR... [--json]`: checks definitions without running them. Every file is
// reported even when another one is unreadable; the exit code is the worst outcome of all files.
import { hasErrors, type Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { DefinitionFileError } from '../../definition/definition-file-error.ts';
import { expandDefinitionPaths, type DefinitionTarget } from '../../definition/expand-definition-paths.ts';
import type { CliIo } from '../cli-io.ts';
import type { Command } from '../command.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../exit-codes.ts';
import { formatDiagnosticLine, formatFileSummary } from '../format-diagnostic.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { WorkspacePolicies } from '../../policy/workspace-policy-findings.ts';

/** One entry of `--json` output. `error` is set when the file could not be checked at all. */
export interface FileReport {
  file: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  error?: string;
}

interface Checked {
  report: FileReport;
  exitCode: number;
  /** Stack of an unexpected exception: a bug in weft, worth showing to whoever reports it. */
  stack?: string;
}

export const validateCommand: Command = {
  name: 'validate',
  summary: 'check workflow files for errors without running them',
  usage: 'weft validate FILE|DIR... [--json]',
  help: `Checks workflow definitions (NAME.weft.json): that each is UTF-8 JSON, follows the
definition format, that its graph and expressions make sense, and that it keeps the
workspace policy of its folder (weft.policy.json, docs/policies.md: codes policy_*, and
policy-file-invalid when that file cannot be read). Nothing is run.

  FILE      a workflow file
  DIR       a folder: every *.weft.json file directly inside it is checked, in name
            order (subfolders are not searched)
  --json    print {"files":[{"file","valid","diagnostics":[...]}]} on stdout instead of
            text; a file that could not be read has "error" and "valid": false

Each finding is one line, FILE: WHERE: CODE: MESSAGE (HINT), where WHERE is the step id,
"edge ID" or "workflow"; warnings end in [warning]. A summary line follows each file:
"FILE: valid", "FILE: valid (2 warnings)" or "FILE: 3 errors, 1 warning".

Exit status: 0 every file is valid (warnings allowed), 1 some file has an error,
2 usage error, or a file or folder could not be read (the others are still checked).`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
    if (positionals.length === 0) {
      throw new UsageError('no files given; pass one or more NAME.weft.json files or folders that hold them');
    }
    const json = values.json === true;
    const reports: FileReport[] = [];
    let exitCode = EXIT_OK;
    const policies = new WorkspacePolicies();
    for (const target of await expandDefinitionPaths(positionals, io.cwd)) {
      const checked = await check(target, policies);
      reports.push(checked.report);
      exitCode = Math.max(exitCode, checked.exitCode);
      if (checked.stack !== undefined) io.stderr.write(`${checked.stack}\n`);
      if (!json) printReport(checked.report, io);
    }
    if (json) io.stdout.write(`${JSON.stringify({ files: reports }, null, 2)}\n`);
    return exitCode;
  },
};

async function check(target: DefinitionTarget, policies: WorkspacePolicies): Promise<Checked> {
  const { file } = target;
  if ('error' in target) return unreadable(file, target.error.message);
  try {
    const { loadDefinitionFile } = await import('../../definition/load-definition-file.ts');
    const loaded = await loadDefinitionFile(target.path);
    // The workspace policy of the file's folder (weft.policy.json) is part of what may run.
    const diagnostics = loaded.workflow === undefined ? loaded.diagnostics : [...loaded.diagnostics, ...policies.findings(target.path, loaded.workflow)];
    const valid = !hasErrors(diagnostics);
    return { report: { file, valid, diagnostics }, exitCode: valid ? EXIT_OK : EXIT_FAILED };
  } catch (error) {
    if (error instanceof DefinitionFileError) return unreadable(file, error.message);
    // A bug in weft, met on this file: say so, keep the stack, and go on with the other files.
    const message = error instanceof Error ? error.message : String(error);
    return {
      report: {
        file,
        valid: false,
        diagnostics: [],
        error: `${file}: internal error while checking this file: ${message} (this is a bug in weft; please report it with the file)`,
      },
      exitCode: EXIT_FAILED,
      ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
    };
  }
}

function unreadable(file: string, message: string): Checked {
  return { report: { file, valid: false, diagnostics: [], error: message }, exitCode: EXIT_USAGE };
}

function printReport(report: FileReport, io: CliIo): void {
  if (report.error !== undefined) {
    io.stderr.write(`weft validate: ${report.error}\n`);
    return;
  }
  const lines = report.diagnostics.map((d) => formatDiagnosticLine(report.file, d));
  lines.push(formatFileSummary(report.file, report.diagnostics));
  io.stdout.write(`${lines.join('\n')}\n`);
}
