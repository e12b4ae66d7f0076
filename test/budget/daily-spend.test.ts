// Daily spend across workflows on a real SQLite file (engine/store/day-spend.ts), in virtual time:
// the workspace's budget counts every workflow's runs, so a run of a workflow that spent nothing
// waits when another workflow has spent the workspace's day; the per-day rows the commits keep
// equal what migration 14 builds from the log; a restarted engine still starts the waiting run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/runtime/engine.ts';
import { seededRandom, VirtualClock } from '../../engine/runtime/virtual-clock.ts';
import { driveUntilQuiet, settleEngine } from '../../engine/scenario/drive.ts';
import { ScriptedExecutor, type Script } from '../../engine/scenario/scripted-executor.ts';
import { hashOf } from '../../engine/store/canonical-json.ts';
import { DAY_MS } from '../../engine/store/day-spend.ts';
import { openDatabase } from '../../engine/store/open-database.ts';
import { Store } from '../../engine/store/store.ts';
import type { Db } from '../../engine/store/db.ts';
import { KEPT_COST_DAYS } from '../kept-cost-days.ts';
import { Policy } from '../../shared/policy/policy-schema.ts';
import { parseWorkflow } from '../engine/harness.ts';

const one = (id: string) => parseWorkflow({
  format: 'weft/v1', id, version: 1, name: id,
  steps: [{ id: 'call', kind: 'http', config: { method: 'POST', url: 'https://api.example/call' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'called', from: 'call', to: 'done' }],
});
const alpha = one('alpha');
const beta = one('beta');
const rules = Policy.parse({ format: 'weft-policy/v1', budgets: { perWorkspacePerDay: 1, perWorkflowPerDay: { beta: 5 } } });
const policy = { hash: hashOf(rules), rules };

let dir = '';
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function engineOn(path: string, clock: VirtualClock): { store: Store; engine: Engine; db: Db } {
  const db = openDatabase(path);
  opened.push(db);
  const store = new Store(db);
  const script: Script = new Map([['call', [{ succeed: { ok: true }, cost: 0.6 }]]]);
  const scripted = new ScriptedExecutor(clock, () => script);
  return { db, store, engine: new Engine({ store, clock, random: seededRandom(7), executors: { http: scripted } }) };
}

describe('the daily spend of a workspace', () => {
  it('counts every workflow; a run of another workflow waits for the next day, also across a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-day-spend-'));
    const path = join(dir, 'weft.db');
    const clock = new VirtualClock();
    const day0 = Math.floor(clock.now() / DAY_MS);
    const first = engineOn(path, clock);
    const start = (e: { store: Store; engine: Engine }, wf: typeof alpha) =>
      e.engine.startRun({ workflow: wf, definitionHash: e.store.saveDefinition(wf, clock.now()), input: {}, workspaceDir: dir, policy });
    const a1 = start(first, alpha);
    await driveUntilQuiet(first.engine, clock);
    const a2 = start(first, alpha);
    await driveUntilQuiet(first.engine, clock);
    expect(first.store.getRun(a2)?.state).toBe('succeeded');
    expect(clock.now()).toBe(day0 * DAY_MS); // all of it on the first day
    expect(first.store.spend.on(day0, 'beta')).toEqual({ workflow: 0, workspace: 1.2 });
    expect(first.store.spend.on(day0, 'alpha')).toEqual({ workflow: 1.2, workspace: 1.2 });

    const b1 = start(first, beta);
    await settleEngine(first.engine);
    expect(first.engine.model(b1)?.state).toBe('waiting');
    const queued = first.store.readEvents(b1).find((e) => e.type === 'run_queued');
    expect(queued?.reason).toBe('waiting for budget: the workspace has spent $1.20 on 2026-01-01 (UTC), all of the policy\'s budgets.perWorkspacePerDay ($1.00); the run starts when the next day begins (2026-01-02T00:00:00.000Z)');
    expect(first.store.spend.waitingForBudget([a1, b1])).toEqual(new Set([b1]));

    // A new engine on the same file (the first one stops): it re-arms the wait and starts b1 at midnight.
    first.engine.close();
    const second = engineOn(path, clock);
    second.engine.recover();
    await driveUntilQuiet(second.engine, clock);
    const events = second.store.readEvents(b1);
    expect(events.filter((e) => e.type === 'run_dequeued').map((e) => e.at)).toEqual([(day0 + 1) * DAY_MS]);
    expect(events.at(-1)?.type === 'run_state_changed' && events.at(-1)?.data).toEqual({ state: 'succeeded' });
    expect(second.store.spend.on(day0 + 1, 'beta')).toEqual({ workflow: 0.6, workspace: 0.6 });
    expect(second.store.spend.waitingForBudget([b1])).toEqual(new Set());

    // What the commits kept, per day and workflow, is what the log's attempt events add up to.
    const rows = (db: Db) => db.prepare(`SELECT day, workflow_id, sum(micros) AS micros FROM ${KEPT_COST_DAYS} GROUP BY day, workflow_id ORDER BY day, workflow_id`).all();
    const kept = rows(second.db);
    expect(kept).toEqual([{ day: day0, workflow_id: 'alpha', micros: 1_200_000 }, { day: day0 + 1, workflow_id: 'beta', micros: 600_000 }]);
    const fromLog = second.db.prepare(`SELECT e.at / ${DAY_MS} AS day, r.workflow_id, SUM(CAST(ROUND(json_extract(e.data, '$.meta.cost.amount') * 1000000) AS INTEGER)) AS micros
      FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type IN ('attempt_succeeded', 'attempt_failed', 'attempt_unknown') AND json_extract(e.data, '$.meta.cost.amount') IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1, 2`).all();
    expect(fromLog).toEqual(kept);
  });
});
