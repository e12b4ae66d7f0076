// Budgets over real HTTP: `weft serve` on a random port over a real store. POST /api/runs takes a
// `budget` (a step that would pass it settles budget_exceeded; RunDetail shows the budget and the
// spend); a bad budget is 400 with its path; a workspace policy whose daily budget is spent makes a
// start wait (state waiting, marked in the runs list), or, with whenOver "refuse", answers 409.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { waitFor } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let workspace: string;
let serving: Serving;

const url = (path: string): string => `http://127.0.0.1:${serving.port}${path}`;
const get = async (path: string): Promise<unknown> => (await fetch(url(path), { headers })).json();
const start = async (body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await fetch(url('/api/runs'), { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

interface Detail { run: { state: string; budget?: unknown; budgetWait?: { reason: string } }; steps: { id: string; outcome: string | null }[] }

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-budget-server-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  // A request to a port nothing listens on would fail: the budget stops it before it is made.
  writeFileSync(join(workspace, 'paid.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'paid', version: 1, name: 'Paid', limits: { budget: 2 },
    steps: [{ id: 'call', kind: 'http', config: { method: 'GET', url: 'http://127.0.0.1:9/never' } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'called', from: 'call', to: 'done' }],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('POST /api/runs with a budget', () => {
  it('gives the run its budget: the smallest applies, and a step past it never calls out', async () => {
    const r = await start({ workflow: 'paid', input: {}, budget: 0 });
    expect(r.status).toBe(201);
    const id = String(r.body['runId']);
    const detail = await waitFor(async () => {
      const d = (await get(`/api/runs/${id}`)) as Detail;
      return d.run.state === 'failed' ? d : undefined;
    }, 'the run to fail');
    expect(detail.run.budget).toEqual({ amount: 0, currency: 'USD', source: 'start', spent: 0 });
    expect(detail.steps.find((s) => s.id === 'call')?.outcome).toBe('budget_exceeded');
  });

  it('refuses a negative budget with 400 and its path', async () => {
    const r = await start({ workflow: 'paid', input: {}, budget: -1 });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('budget');
  });

  it('a start past the daily budget waits, or is refused with 409 when the policy says so', async () => {
    writeFileSync(join(workspace, 'weft.policy.json'), JSON.stringify({ format: 'weft-policy/v1', budgets: { perWorkflowPerDay: { paid: 0 } } }));
    const waiting = await start({ workflow: 'paid', input: {} });
    expect(waiting.status).toBe(201);
    expect(waiting.body['state']).toBe('waiting');
    const id = String(waiting.body['runId']);
    const detail = (await get(`/api/runs/${id}`)) as Detail;
    expect(detail.run.budgetWait?.reason).toMatch(/^waiting for budget: runs of "paid" have spent \$0.00 on \d{4}-\d\d-\d\d \(UTC\), all of the policy's budgets\.perWorkflowPerDay\["paid"\] \(\$0.00\)/);
    const list = (await get('/api/runs?limit=10')) as { runs: { id: string; waitingFor?: string }[] };
    expect(list.runs.find((x) => x.id === id)?.waitingFor).toBe('budget');

    writeFileSync(join(workspace, 'weft.policy.json'), JSON.stringify({ format: 'weft-policy/v1', budgets: { perWorkflowPerDay: { paid: 0 }, whenOver: 'refuse' } }));
    const refused = await start({ workflow: 'paid', input: {} });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('budgets.whenOver is \\"refuse\\"');
  });
});
