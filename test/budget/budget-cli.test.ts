// Budgets through the CLI, in-process on real SQLite files and a real HTTP server on 127.0.0.1:
// `weft run --budget` gives a run its budget; a step that would pass it settles budget_exceeded
// without its request ever reaching the server; `weft inspect` shows the budget and the spend;
// a workspace policy's daily budget makes a run wait ("waiting for budget" in `weft runs`) or
// refuses it; a bad --budget is a usage error that writes nothing.
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weftInProcess } from '../cli/capture-io.ts';

let server: Server;
let calls = 0;
let dir = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    calls++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"price": 12}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  dir = mkdtempSync(join(tmpdir(), 'weft-budget-cli-'));
  const flow = {
    format: 'weft/v1', id: 'quote', version: 1, name: 'Quote',
    steps: [{ id: 'fetch', kind: 'http', config: { method: 'GET', url: `http://127.0.0.1:${port}/price` } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'fetched', from: 'fetch', to: 'done' }],
  };
  writeFileSync(join(dir, 'quote.weft.json'), JSON.stringify(flow, null, 2));
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const weft = (...args: string[]) => weftInProcess(args, dir);

describe('weft run --budget', () => {
  it('stops a step that would pass the budget before its call: budget_exceeded, the run fails naming the budget', async () => {
    const before = calls;
    const r = await weft('run', 'quote.weft.json', '--db', 'spent.db', '--budget', '0', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const { runId, state } = JSON.parse(r.stdout) as { runId: string; state: string };
    expect(state).toBe('failed');
    expect(calls).toBe(before); // the request never reached the server
    const detail = JSON.parse((await weft('inspect', runId, '--db', 'spent.db', '--json')).stdout) as { run: { budget: unknown; failing: { reason: string } }; steps: { id: string; outcome: string; attempts: unknown[] }[] };
    expect(detail.run.budget).toEqual({ amount: 0, currency: 'USD', source: 'start', spent: 0 });
    expect(detail.steps.find((s) => s.id === 'fetch')).toMatchObject({
      outcome: 'budget_exceeded',
      attempts: [],
      next: "failed: budget_exceeded: the run has spent $0.00, all of the start's budget ($0.00); the step was not called",
    });
    expect(detail.run.failing.reason).toBe('step "fetch" budget_exceeded (the run has spent $0.00, all of the start\'s budget ($0.00)) and no edge or escalation handles it');
    const text = await weft('inspect', runId, '--db', 'spent.db');
    expect(text.stdout).toContain("Budget: $0.00 spent of the start's budget ($0.00)\n");
  });

  it('runs a step within the budget, which inspect shows with the spend', async () => {
    const before = calls;
    const r = await weft('run', 'quote.weft.json', '--db', 'within.db', '--budget', '0.25', '--json');
    expect(r.code).toBe(0);
    expect(calls).toBe(before + 1);
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    const text = await weft('inspect', runId, '--db', 'within.db');
    expect(text.stdout).toContain("Budget: $0.00 spent of the start's budget ($0.25)\n");
  });

  it.each([['-1'], ['abc'], ['']])('refuses --budget %j with a usage error, and creates no store', async (amount) => {
    const r = await weft('run', 'quote.weft.json', '--db', 'bad.db', `--budget=${amount}`);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`weft run: --budget takes an amount of 0 or more, such as 0.25; got "${amount}"`);
    expect(existsSync(join(dir, 'bad.db'))).toBe(false);
  });
});

describe('daily budgets from the workspace policy', () => {
  it('a run past the day\'s budget waits, marked in weft runs and inspect; with whenOver "refuse" it is refused', async () => {
    const policyFile = join(dir, 'weft.policy.json');
    writeFileSync(policyFile, JSON.stringify({ format: 'weft-policy/v1', budgets: { perWorkspacePerDay: 0 } }));
    try {
      const before = calls;
      const r = await weft('run', 'quote.weft.json', '--db', 'daily.db', '--json');
      expect(r.code).toBe(3);
      const { runId, state } = JSON.parse(r.stdout) as { runId: string; state: string };
      expect(state).toBe('waiting');
      expect(calls).toBe(before);
      const runs = await weft('runs', '--db', 'daily.db');
      expect(runs.stdout).toMatch(new RegExp(`^${runId}  quote v1  waiting .* waiting for budget\\n$`));
      const json = JSON.parse((await weft('runs', '--db', 'daily.db', '--json')).stdout) as { runs: { waitingFor?: string }[] };
      expect(json.runs[0]?.waitingFor).toBe('budget');
      const text = (await weft('inspect', runId, '--db', 'daily.db')).stdout;
      expect(text).toMatch(/\nWaiting for budget until \d{4}-\d\d-\d\dT00:00:00\.000Z: the workspace has spent \$0.00 on \d{4}-\d\d-\d\d \(UTC\), all of the policy's budgets\.perWorkspacePerDay \(\$0.00\); the run starts when the next day begins/);

      writeFileSync(policyFile, JSON.stringify({ format: 'weft-policy/v1', budgets: { perWorkspacePerDay: 0, whenOver: 'refuse' } }));
      const refused = await weft('run', 'quote.weft.json', '--db', 'daily.db');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('run of "quote" refused: the workspace has spent $0.00 on ');
      expect(refused.stderr).toContain('budgets.whenOver is "refuse"');
      expect(JSON.parse((await weft('runs', '--db', 'daily.db', '--json')).stdout).runs).toHaveLength(1);
    } finally {
      rmSync(policyFile, { force: true });
    }
  });
});
