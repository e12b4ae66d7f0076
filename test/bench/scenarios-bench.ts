// Scenario tests and metrics: how long every example scenario takes in virtual time (what
// `weft test examples/` spends besides process start), and how long `weft stats` folds take over
// a store of many runs (workflowReport: read every run's log and fold it).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { ScenarioFile, type Scenario } from '../../shared/scenario/scenario-schema.ts';
import { workflowReport } from '../../engine/metrics/stats.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';

const root = join(import.meta.dirname, '..', '..');

function load(file: string): Workflow {
  const parsed = parseDefinitionText(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  return parsed.workflow;
}

export const benchmark: Benchmark = {
  name: 'scenarios',
  description: 'every example scenario in virtual time; weft stats folds over 1,000 and 4,000 runs',
  async run(print) {
    const examples = join(root, 'examples');
    const rows = [['workflow', 'scenarios', 'virtual time', 'median ms/scenario', 'total ms']];
    let all = 0;
    let allMs = 0;
    for (const f of readdirSync(examples).filter((x) => x.endsWith('.scenarios.json')).sort()) {
      const workflow = load(join(examples, f.replace('.scenarios.json', '.weft.json')));
      const scenarios = ScenarioFile.parse(JSON.parse(readFileSync(join(examples, f), 'utf8'))).scenarios;
      for (const s of scenarios) await runScenario(workflow, s); // warm-up
      const per: number[] = [];
      let virtualMs = 0;
      for (const s of scenarios) {
        const t = performance.now();
        const r = await runScenario(workflow, s);
        per.push(performance.now() - t);
        virtualMs += r.virtualMs;
        if (!r.passed) throw new Error(`${f}: "${s.name}" failed`);
      }
      const total = per.reduce((a, b) => a + b, 0);
      all += scenarios.length;
      allMs += total;
      rows.push([f.replace('.scenarios.json', ''), String(scenarios.length), `${(virtualMs / 86_400_000).toFixed(1)} d`, median(per).toFixed(1), total.toFixed(0)]);
    }
    rows.push(['all examples', String(all), '', '', allMs.toFixed(0)]);
    for (const line of formatTable(rows)) print(line);

    // The yardstick: a 7-day deadline after 10 retries with an hour of backoff.
    const slowDir = join(root, 'test', 'fixtures', 'scenarios');
    const slow = load(join(slowDir, 'slow-world.weft.json'));
    const slowScenario = ScenarioFile.parse(JSON.parse(readFileSync(join(slowDir, 'slow-world.scenarios.json'), 'utf8'))).scenarios[0] as Scenario;
    const slowTimes: number[] = [];
    let slowVirtual = 0;
    for (let i = 0; i < 11; i++) {
      const t = performance.now();
      const r = await runScenario(slow, slowScenario);
      if (i > 0) slowTimes.push(performance.now() - t);
      slowVirtual = r.virtualMs;
    }
    print(`slow-world (10 hourly retries + 7-day deadline, ${(slowVirtual / 86_400_000).toFixed(1)} virtual days): median ${median(slowTimes).toFixed(1)} ms wall`);

    const fixtures = join(root, 'test', 'fixtures', 'metrics');
    const workflow = load(join(fixtures, 'refund-check.weft.json'));
    const kinds = ScenarioFile.parse(JSON.parse(readFileSync(join(fixtures, 'refund-check.scenarios.json'), 'utf8'))).scenarios;
    const statRows = [['runs', 'events', 'store MiB', 'median ms', 'ms per run']];
    const dir = mkdtempSync(join(tmpdir(), 'weft-stats-bench-'));
    const dbPath = join(dir, 'weft.db');
    let made = 0;
    for (const target of [1_000, 4_000]) {
      for (; made < target; made++) {
        const kind = kinds[made % kinds.length] as Scenario;
        await runScenario(workflow, { ...kind, seed: made + 1 }, { dbPath });
      }
      const db = openDatabase(dbPath);
      const store = new Store(db);
      const events = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const report = workflowReport(store, 'refund-check', { asOf: Date.now() });
        times.push(performance.now() - t);
        if (report.stats.runs !== target) throw new Error(`expected ${target} runs, got ${report.stats.runs}`);
      }
      db.close();
      const ms = median(times);
      const mib = (readFileSync(dbPath).length / 1_048_576).toFixed(1);
      statRows.push([String(target), String(events), mib, ms.toFixed(0), (ms / target).toFixed(3)]);
    }
    rmSync(dir, { recursive: true, force: true });
    print('');
    for (const line of formatTable(statRows)) print(line);
    print('scenarios: one warm-up pass, then each scenario once; stats: median of 5 workflowReport calls');
  },
};
