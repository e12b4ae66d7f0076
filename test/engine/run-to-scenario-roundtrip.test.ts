// Every example scenario (and the scenario fixtures) runs once on the real engine into a SQLite
// file; each main run that ended becomes a scenario again (engine/evolution/run-to-scenario.ts),
// which must pass against the same workflow: the recorded answers (a revalidate check's reads
// included), decisions, events, operator
// actions and revisions lead the engine to the same end, step for step. Loops and revised inputs
// exercise the `cases` scripts; a fork is refused, as are runs still waiting.
import { artifactsDirOf, FileArtifactStore } from '../../engine/artifacts/artifact-store.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDefinitionFile } from '../../engine/definition/load-definition-file.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { runToScenario, RunToScenarioError } from '../../engine/evolution/run-to-scenario.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { Scenario, ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { REPO_ROOT } from '../cli/run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-run-to-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenarioFiles(folder: string): { workflow: string; files: string[] }[] {
  return readdirSync(folder).filter((f) => f.endsWith('.weft.json')).map((f) => {
    const base = join(folder, f.replace(/\.weft\.json$/, ''));
    const sub = `${base}.scenarios`;
    const more = (() => {
      try {
        return readdirSync(sub).filter((x) => x.endsWith('.json')).map((x) => join(sub, x));
      } catch {
        return [];
      }
    })();
    return { workflow: join(folder, f), files: [`${base}.scenarios.json`, ...more].filter((x) => { try { readFileSync(x); return true; } catch { return false; } }) };
  });
}

const cases = [...scenarioFiles(join(REPO_ROOT, 'examples')), ...scenarioFiles(join(REPO_ROOT, 'test', 'fixtures', 'scenarios'))].flatMap(({ workflow, files }) =>
  files.flatMap((file) => ScenarioFile.parse(JSON.parse(readFileSync(file, 'utf8'))).scenarios.map((s) => ({ workflow, file, scenario: s }))),
);

const roundTrips = (c: (typeof cases)[number]): boolean => c.scenario.crash === undefined && c.scenario.runs === undefined;

let n = 0;
const checked: string[] = [];
const refused: string[] = [];
describe('a run made into a scenario passes against its workflow', () => {
  // Left out: a crash (the engine died mid-attempt, which a scenario made from the log does not
  // repeat) and several runs at once (a run that waited for a slot shared with other runs may
  // take another way alone: docs/evolution.md).
  it.each(cases.filter(roundTrips).map((c) => [`${c.file.slice(REPO_ROOT.length)}: ${c.scenario.name}`, c] as const))('%s', async (_name, c) => {
    const loaded = await loadDefinitionFile(c.workflow);
    const workflow = loaded.workflow as Workflow;
    n += 1;
    const dbPath = join(dir, `run-${n}.db`);
    const first = await runScenario(workflow, c.scenario, { dbPath });
    const main = first.runs[0];
    if (main === undefined) return;
    const db = openDatabase(dbPath);
    const store = new Store(db);
    let made;
    try {
      const events = store.readEvents(main.runId);
      made = runToScenario(foldRun(store, main.runId, events), events, (ref) => new FileArtifactStore(artifactsDirOf(dbPath)).read(ref));
    } catch (e) {
      if (e instanceof RunToScenarioError) {
        expect(['not-finished', 'fork']).toContain(e.code);
        refused.push(e.code);
        return;
      }
      throw e;
    } finally {
      db.close();
    }
    expect(Scenario.safeParse(made.scenario).success).toBe(true);
    const again = await runScenario(workflow, made.scenario);
    const failed = again.assertions.filter((a) => !a.ok);
    expect({ error: again.error, failed }).toEqual({ error: undefined, failed: [] });
    expect(again.assertions.length).toBeGreaterThan(2);
    checked.push(c.scenario.name);
  });

  it('made and passed a test from most of them; the others were still going or forks', () => {
    expect(checked.length).toBeGreaterThan(60);
    expect(refused.filter((x) => x === 'fork')).toHaveLength(0); // the main run is never a fork
    expect(checked.length + refused.length).toBe(cases.filter(roundTrips).length);
  });
});
