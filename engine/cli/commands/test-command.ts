// `weft test PATH... [--json]`: runs each workflow's scenarios (NAME.scenarios.json beside
// NAME.weft.json) in virtual time and reports passes, failed assertions with expected and actual
// values, and the steps and edges no scenario exercised.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ScenarioFile } from '../../../shared/scenario/scenario-schema.ts';
import { hasErrors } from '../../../shared/validator/diagnostic.ts';
import { loadDefinitionFile } from '../../definition/load-definition-file.ts';
import { coverageOf, type Coverage } from '../../scenario/coverage.ts';
import { runScenario, type ScenarioResult } from '../../scenario/run-scenario.ts';
import type { Command } from '../command.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';

interface Target {
  workflowFile: string;
  scenarioFile: string;
}

export const testCommand: Command = {
  name: 'test',
  summary: "run workflows' scenarios in virtual time and report coverage",
  usage: 'weft test PATH... [--json]',
  help: `Runs the scenarios of each workflow: PATH is a NAME.weft.json (its scenarios are in
NAME.scenarios.json beside it), a NAME.scenarios.json, or a folder (every workflow in it that has
scenarios). Each scenario runs on the real engine with a virtual clock (deadlines and backoffs
of days take milliseconds), scripted step outcomes, decisions and events; see
docs/scenarios.md. Prints, per workflow, the scenarios passed and the steps and edges that no
scenario exercised; a failed assertion shows its expected and actual values.

  --json   print {"workflows":[{"file","scenarios":[{"name","passed","assertions"}],"coverage"}]}

Exit status: 0 every scenario passed, 1 one failed, 2 usage error or an unreadable or invalid file.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
    if (positionals.length === 0) throw new UsageError('give workflow files, scenario files or folders');
    const targets = positionals.flatMap((p) => targetsOf(resolve(io.cwd, p), io));
    let code = EXIT_OK;
    const report = [];
    for (const t of targets) {
      const r = await testWorkflow(t, io);
      if (r === undefined) {
        code = EXIT_USAGE;
        continue;
      }
      report.push(r);
      if (r.scenarios.some((s) => !s.passed)) code = Math.max(code, EXIT_FAILED);
      if (values.json !== true) print(io, r);
    }
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ workflows: report.map((r) => ({ file: r.file, scenarios: r.scenarios.map((s) => ({ name: s.name, passed: s.passed, virtualMs: s.virtualMs, crashed: s.crashed, assertions: s.assertions, ...(s.error === undefined ? {} : { error: s.error }) })), coverage: r.coverage })) })}\n`);
    }
    if (targets.length === 0) {
      io.stderr.write('weft test: no workflow with scenarios found (NAME.scenarios.json beside NAME.weft.json)\n');
      return EXIT_USAGE;
    }
    return code;
  },
};

function targetsOf(path: string, io: CliIo): Target[] {
  if (!existsSync(path)) {
    io.stderr.write(`weft test: ${path} does not exist\n`);
    return [];
  }
  if (statSync(path).isDirectory()) {
    return readdirSync(path)
      .filter((f) => f.endsWith('.weft.json') && existsSync(join(path, f.replace(/\.weft\.json$/, '.scenarios.json'))))
      .sort()
      .map((f) => ({ workflowFile: join(path, f), scenarioFile: join(path, f.replace(/\.weft\.json$/, '.scenarios.json')) }));
  }
  if (path.endsWith('.scenarios.json')) return [{ workflowFile: path.replace(/\.scenarios\.json$/, '.weft.json'), scenarioFile: path }];
  return [{ workflowFile: path, scenarioFile: path.replace(/\.weft\.json$/, '.scenarios.json') }];
}

async function testWorkflow(t: Target, io: CliIo): Promise<{ file: string; scenarios: ScenarioResult[]; coverage: Coverage } | undefined> {
  const fail = (message: string): undefined => {
    io.stderr.write(`weft test: ${message}\n`);
    return undefined;
  };
  let text: string;
  try {
    text = readFileSync(t.scenarioFile, 'utf8');
  } catch {
    return fail(`no scenarios for ${basename(t.workflowFile)}: ${t.scenarioFile} cannot be read`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`${t.scenarioFile} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = ScenarioFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(`${t.scenarioFile}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'} (see docs/scenarios.md)`);
  }
  const workflowFile = parsed.data.workflow === undefined ? t.workflowFile : resolve(dirname(t.scenarioFile), parsed.data.workflow);
  let loaded;
  try {
    loaded = await loadDefinitionFile(workflowFile);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (loaded.workflow === undefined || hasErrors(loaded.diagnostics)) return fail(`${workflowFile} is not a valid workflow (check it with weft validate)`);
  const scenarios: ScenarioResult[] = [];
  for (const s of parsed.data.scenarios) scenarios.push(await runScenario(loaded.workflow, s));
  return { file: workflowFile, scenarios, coverage: coverageOf(loaded.workflow, scenarios.map((s) => s.events)) };
}

function print(io: CliIo, r: { file: string; scenarios: ScenarioResult[]; coverage: Coverage }): void {
  const passed = r.scenarios.filter((s) => s.passed).length;
  const c = r.coverage;
  io.stdout.write(`${r.file}: ${passed}/${r.scenarios.length} scenarios passed; steps ${c.steps.covered}/${c.steps.total} covered, edges ${c.edges.covered}/${c.edges.total} covered\n`);
  if (c.steps.missing.length > 0 || c.edges.missing.length > 0) {
    io.stdout.write(`  not exercised:${c.steps.missing.length > 0 ? ` steps ${c.steps.missing.join(', ')}` : ''}${c.edges.missing.length > 0 ? `${c.steps.missing.length > 0 ? ';' : ''} edges ${c.edges.missing.join(', ')}` : ''}\n`);
  }
  for (const s of r.scenarios) {
    if (s.passed) continue;
    io.stdout.write(`  FAIL ${JSON.stringify(s.name)}${s.error === undefined ? '' : `: ${s.error}`}\n`);
    for (const a of s.assertions.filter((x) => !x.ok)) io.stdout.write(`    ${a.what}: expected ${JSON.stringify(a.expected)}, got ${JSON.stringify(a.actual)}\n`);
  }
}
