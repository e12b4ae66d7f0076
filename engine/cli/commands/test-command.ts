// `weft test FILE [SCENARIO_FILE...] [--json [--events]]`: runs each workflow's scenarios (given after it, or
// NAME.scenarios.json and the files of a NAME.scenarios/ folder beside NAME.weft.json) in virtual
// time and reports passes, failed assertions with expected and actual values, and the steps and
// edges no scenario exercised.
import { loadWorkspacePolicy } from '../../policy/load-policy.ts';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ScenarioFile } from '../../../shared/scenario/scenario-schema.ts';
import { hasErrors } from '../../../shared/validator/diagnostic.ts';
import type { Coverage } from '../../scenario/coverage.ts';
import type { ScenarioResult } from '../../scenario/run-scenario.ts';
import type { Command } from '../command.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { storeFlagsHelp } from '../store-path.ts';

interface Target {
  workflowFile: string;
  scenarioFiles: string[];
  /** Named on the command line (not found from a scenario file's name or `workflow` key). */
  explicit: boolean;
}

export const testCommand: Command = {
  name: 'test',
  summary: "run workflows' scenarios in virtual time and report coverage",
  usage: 'weft test FILE [SCENARIO_FILE...] [--json [--events]] | weft test --from-run RUN [-o FILE] [--store URL|PATH | --db PATH]',
  help: `Runs the scenarios of each workflow. FILE is a NAME.weft.json; the scenario files after it
are its scenarios (a NAME.scenarios.json, or any *.json holding {"scenarios": [...]}), and without any, NAME.scenarios.json and every *.json in a NAME.scenarios/
folder beside it are. A scenario file or NAME.scenarios/ folder on its own tests the workflow
beside it (or the one its "workflow" key names); a folder tests every workflow in it that has
scenarios. Several FILEs (each with its scenario files) may follow each other. Each scenario runs on the real engine with a virtual clock (deadlines and backoffs
of days take milliseconds), scripted step outcomes, decisions and events; see
docs/scenarios.md. Prints, per workflow, the scenarios passed and the steps and edges that no
scenario exercised; a failed assertion shows its expected and actual values.

  --json     print {"workflows":[{"file","scenarios":[{"name","passed","assertions","runs"}],"coverage"}]}
  --events   with --json: each scenario also gives "events", the event log of every run it
             started, in the order written

A run becomes a test: --from-run RUN (an id or a unique prefix) makes one scenario from a run
that has ended: its input, every recorded answer of the steps that call out as scripted
outcomes, people's decisions, events and operator actions at their offsets, and how it ended as
expectations (docs/evolution.md). It prints the scenario file's JSON, or with -o FILE writes it
(an existing FILE must be a scenarios file of the same workflow: the scenario is added to it).

  --from-run RUN  the run (a run still going, a fork, a debug run that pinned a step the
                  engine computes, or one whose large values are gone from the store's
                  artifacts/ is refused); values kept by reference are written as values
  -o, --output FILE  write the scenario file there instead of printing it
${storeFlagsHelp(18)}

Exit status: 0 every scenario passed (--from-run: the scenario was printed or written), 1 one
failed, 2 usage error, an unreadable or invalid file, or (--from-run) an unknown run or a run
that cannot become a test.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      json: { type: 'boolean' },
      events: { type: 'boolean' },
      'from-run': { type: 'string' },
      output: { type: 'string', short: 'o' },
      store: { type: 'string' },
      db: { type: 'string' },
    });
    const fromRun = values['from-run'];
    if (fromRun !== undefined) {
      if (positionals.length > 0) throw new UsageError(`--from-run makes a scenario from a run; give no files with it (got ${positionals.join(' ')}), and -o FILE to write it`);
      if (values.json === true || values.events === true) throw new UsageError('--from-run prints the scenario file as JSON already; give it without --json or --events');
      const { testFromRun } = await import('../test-from-run.ts');
      return testFromRun(io, fromRun, values.output, values);
    }
    if (values.output !== undefined || values.store !== undefined || values.db !== undefined) throw new UsageError('-o, --store and --db go with --from-run RUN: weft test --from-run RUN [-o FILE] [--store URL|PATH | --db PATH]');
    if (positionals.length === 0) throw new UsageError('give workflow files, scenario files or folders, or --from-run RUN');
    if (values.events === true && values.json !== true) throw new UsageError('--events needs --json: the event logs are part of the JSON report');
    const { targets, missing } = targetsOf(positionals.map((p) => resolve(io.cwd, p)), io);
    let code = missing ? EXIT_USAGE : EXIT_OK;
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
      const scenarioJson = (s: ScenarioResult): Record<string, unknown> => ({
        name: s.name,
        passed: s.passed,
        virtualMs: s.virtualMs,
        crashed: s.crashed,
        assertions: s.assertions,
        runs: s.runs.map((x) => ({ name: x.name, runId: x.runId, state: x.metrics.state })),
        ...(s.error === undefined ? {} : { error: s.error }),
        ...(values.events === true ? { events: s.events } : {}),
      });
      io.stdout.write(`${JSON.stringify({ workflows: report.map((r) => ({ file: r.file, scenarios: r.scenarios.map(scenarioJson), coverage: r.coverage })) })}\n`);
    }
    if (targets.length === 0) {
      io.stderr.write('weft test: no workflow with scenarios found (NAME.scenarios.json or a NAME.scenarios/ folder beside NAME.weft.json)\n');
      return EXIT_USAGE;
    }
    return code;
  },
};

/** NAME.scenarios.json, then the *.json files of NAME.scenarios/, beside NAME.weft.json. */
function defaultScenarioFiles(workflowFile: string): string[] {
  const base = workflowFile.replace(/\.weft\.json$/, '');
  const files = existsSync(`${base}.scenarios.json`) ? [`${base}.scenarios.json`] : [];
  return [...files, ...scenarioFolderFiles(`${base}.scenarios`)];
}

function scenarioFolderFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}

function targetsOf(paths: readonly string[], io: CliIo): { targets: Target[]; missing: boolean } {
  const targets: Target[] = [];
  let missing = false;
  let current: Target | undefined;
  const scenarios = (files: string[], workflowFile: string): void => {
    if (current !== undefined) current.scenarioFiles.push(...files);
    else targets.push({ workflowFile, scenarioFiles: files, explicit: false });
  };
  for (const path of paths) {
    if (!existsSync(path)) {
      io.stderr.write(`weft test: ${path} does not exist\n`);
      missing = true;
      continue;
    }
    if (statSync(path).isDirectory()) {
      if (path.endsWith('.scenarios')) {
        scenarios(scenarioFolderFiles(path), path.replace(/\.scenarios$/, '.weft.json'));
        continue;
      }
      current = undefined;
      for (const f of readdirSync(path).filter((x) => x.endsWith('.weft.json')).sort()) {
        const files = defaultScenarioFiles(join(path, f));
        if (files.length > 0) targets.push({ workflowFile: join(path, f), scenarioFiles: files, explicit: true });
      }
      continue;
    }
    if (path.endsWith('.scenarios.json')) {
      scenarios([path], path.replace(/\.scenarios\.json$/, '.weft.json'));
      continue;
    }
    // Any other *.json is told by what it holds: scenarios go with the workflow before them.
    const kind = path.endsWith('.json') && !path.endsWith('.weft.json') ? jsonFileKind(path) : { kind: 'workflow' as const };
    if (kind.kind === 'scenarios') {
      if (current !== undefined) current.scenarioFiles.push(path);
      else if (kind.workflow !== undefined) scenarios([path], resolve(dirname(path), kind.workflow));
      else {
        io.stderr.write(`weft test: ${path} holds scenarios, and no workflow comes before it nor does it name one: give the workflow first (weft test NAME.weft.json ${basename(path)}), or name it in the file's "workflow" key\n`);
        missing = true;
      }
      continue;
    }
    if (kind.kind === 'neither') {
      io.stderr.write(`weft test: ${path} is neither a workflow (a weft/v1 definition with "steps") nor a scenarios file ({"scenarios": [...]}, docs/scenarios.md): ${kind.why}\n`);
      missing = true;
      continue;
    }
    current = { workflowFile: path, scenarioFiles: [], explicit: true };
    targets.push(current);
  }
  for (const t of targets) if (t.scenarioFiles.length === 0 && t.explicit) t.scenarioFiles = defaultScenarioFiles(t.workflowFile);
  return { targets, missing };
}

type JsonFileKind = { kind: 'workflow' } | { kind: 'scenarios'; workflow: string | undefined } | { kind: 'neither'; why: string };

/**
 * What a *.json file not named NAME.weft.json or NAME.scenarios.json holds: scenarios (an object
 * with a "scenarios" list; the schema checks them when they run), a workflow (an object with
 * "steps" or "format"), or neither, said why.
 *
 * @example jsonFileKind('/ws/extra.json') // { kind: 'scenarios', workflow: undefined }
 */
function jsonFileKind(path: string): JsonFileKind {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { kind: 'neither', why: `it cannot be read as JSON (${(e as Error).message})` };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { kind: 'neither', why: 'its JSON is not an object' };
  const o = raw as Record<string, unknown>;
  const isScenarios = Array.isArray(o['scenarios']);
  const isWorkflow = 'steps' in o || 'format' in o;
  if (isScenarios && !isWorkflow) return { kind: 'scenarios', workflow: typeof o['workflow'] === 'string' ? o['workflow'] : undefined };
  if (isWorkflow && !isScenarios) return { kind: 'workflow' };
  return { kind: 'neither', why: isScenarios ? 'it has both "scenarios" and "steps" (or "format")' : 'it has no "scenarios" list, nor "steps" or "format"' };
}

async function testWorkflow(t: Target, io: CliIo): Promise<{ file: string; scenarios: ScenarioResult[]; coverage: Coverage } | undefined> {
  // The schema, the validator and the engine load with this command, not with every `weft` call.
  const [{ ScenarioFile }, { loadDefinitionFile }, { runScenario }, { coverageOf }, { readPriceTable }] = await Promise.all([
    import('../../../shared/scenario/scenario-schema.ts'),
    import('../../definition/load-definition-file.ts'),
    import('../../scenario/run-scenario.ts'),
    import('../../scenario/coverage.ts'),
    import('../../cost/load-prices.ts'),
  ]);
  const fail = (message: string): undefined => {
    io.stderr.write(`weft test: ${message}\n`);
    return undefined;
  };
  if (t.scenarioFiles.length === 0) {
    return fail(`no scenarios for ${basename(t.workflowFile)}: give scenario files after it, or put them in ${basename(t.workflowFile).replace(/\.weft\.json$/, '.scenarios.json')} or a ${basename(t.workflowFile).replace(/\.weft\.json$/, '.scenarios/')} folder beside it`);
  }
  const files: { file: string; data: ScenarioFile }[] = [];
  for (const file of t.scenarioFiles) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return fail(`no scenarios for ${basename(t.workflowFile)}: ${file} cannot be read`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return fail(`${file} is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = ScenarioFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(`${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'} (see docs/scenarios.md)`);
    }
    files.push({ file, data: parsed.data });
  }
  const named = files[0]?.data.workflow;
  const workflowFile = t.explicit || named === undefined ? t.workflowFile : resolve(dirname(files[0]?.file ?? '.'), named);
  let loaded;
  try {
    loaded = await loadDefinitionFile(workflowFile);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (loaded.workflow === undefined || hasErrors(loaded.diagnostics)) return fail(`${workflowFile} is not a valid workflow (check it with weft validate)`);
  let prices;
  try {
    prices = readPriceTable(dirname(workflowFile));
  } catch (e) {
    return fail((e as Error).message);
  }
  const scenarios: ScenarioResult[] = [];
  let workspacePolicy;
  try {
    workspacePolicy = loadWorkspacePolicy(dirname(workflowFile))?.rules;
  } catch (e) {
    return fail((e as Error).message);
  }
  for (const f of files) {
    for (const s of f.data.scenarios) {
      // A scenario's own policy, else its file's, else the workspace's beside the workflow.
      const policy = s.policy ?? f.data.policy ?? workspacePolicy;
      scenarios.push(await runScenario(loaded.workflow, policy === undefined ? s : { ...s, policy }, prices === undefined ? {} : { prices }));
    }
  }
  return { file: workflowFile, scenarios, coverage: coverageOf(loaded.workflow, scenarios.flatMap((s) => s.runs.map((x) => x.metrics))) };
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
    // What did happen, to compare with what was expected: the edges taken and how each run ended.
    for (const { name, metrics: m } of s.runs) {
      const which = s.runs.length === 1 ? 'the run' : `run "${name}"`;
      io.stdout.write(`    ${which} took ${m.path.length === 0 ? 'no edge' : m.path.join(' > ')} and ended ${m.state}${m.failure?.step == null ? '' : ` (went wrong at ${m.failure.step}: ${m.failure.outcome ?? '?'})`}${s.crashed ? ', after a crash' : ''}\n`);
    }
  }
}
