// A workflow whose agent calls bill what a scenario script says, on a real store: what the
// re-billing tests (rebill.test.ts, the CLI's) estimate from. draft (agent, $0.012) → check
// (agent, $0.003, fails on its first call) → tidy (transform, free) → polish (agent, no cost
// recorded) → done.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultExecutors } from '../../engine/executors/default-executors.ts';
import { Engine } from '../../engine/runtime/engine.ts';
import { ScriptedExecutor, type ScriptedOutcome } from '../../engine/scenario/scripted-executor.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import { systemClock, systemRandom } from '../../engine/time/clock.ts';
import { parseWorkflow } from './harness.ts';

const agent = (id: string): object => ({ id, kind: 'agent', config: { provider: 'mock', prompt: `Do ${id}.`, mock: { replies: [{ output: { ok: true } }] } } });

export const rebillFlow = parseWorkflow({
  format: 'weft/v1',
  id: 'billed',
  version: 1,
  name: 'Billed',
  input: { type: 'object' },
  steps: [
    { ...agent('draft'), input: 'input' },
    { ...agent('check'), retry: { maxAttempts: 1 } },
    { id: 'tidy', kind: 'transform', config: { expression: '{"tidy": true}' } },
    agent('polish'),
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'drafted', from: 'draft', to: 'check' },
    { id: 'checked', from: 'check', to: 'tidy' },
    { id: 'tidied', from: 'tidy', to: 'polish' },
    { id: 'polished', from: 'polish', to: 'done' },
  ],
});

export const REBILL_SCRIPT = new Map<string, ScriptedOutcome[]>([
  ['draft', [{ succeed: { text: 'a draft' }, usage: { inputTokens: 1200, outputTokens: 300 }, cost: 0.012 }]],
  ['check', [{ fail: 'too long', cost: 0.003 }, { succeed: { ok: true }, cost: 0.003 }]],
  ['polish', [{ succeed: { text: 'polished' } }]],
]);

/** A store in a temp folder with one run of rebillFlow, settled: failed at check (its first call fails). */
export async function billedStore(): Promise<{ dir: string; dbPath: string; runId: string; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-rebill-'));
  const dbPath = join(dir, 'weft.db');
  const db = openDatabase(dbPath);
  const store = new Store(db);
  const scripted = new ScriptedExecutor(systemClock, REBILL_SCRIPT);
  const engine = new Engine({ store, clock: systemClock, random: systemRandom, executors: { ...defaultExecutors(), agent: scripted } });
  const hash = store.saveDefinition(rebillFlow, Date.now());
  const runId = engine.startRun({ workflow: rebillFlow, definitionHash: hash, input: { topic: 'fees' }, workspaceDir: dir });
  await engine.settled(runId);
  return {
    dir,
    dbPath,
    runId,
    close() {
      engine.close();
      db.close();
    },
  };
}
