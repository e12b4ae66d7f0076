// `GET /api/runs` with the runs list's narrower filters, over real HTTP and a real store: the
// workflow version, the step a failed run went wrong at, and the creation time range. They are
// done by the server, so "Select all N matching" and the bulk actions act on exactly these runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSummaryPage } from '../../shared/api/run-summary.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { waitUntil } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let workspace: string;
let serving: Serving;
/** Runs by version and by how they end. */
const runs = { v1ok: '', v1failA: '', v2failA: '', v2failB: '' };
let between = '';

const definition = (version: number) => ({
  format: 'weft/v1', id: 'filters', version, name: 'filters',
  input: { type: 'object', properties: { fail: { type: 'string' } } },
  steps: [
    { id: 'a', kind: 'transform', config: { expression: 'input.fail = "a" ? $error("a broke") : 1' } },
    { id: 'b', kind: 'transform', config: { expression: 'input.fail = "b" ? $error("b broke") : 2' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'a', to: 'b' }, { id: 'e2', from: 'b', to: 'done' }],
});

const page = async (query: string): Promise<RunSummaryPage> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs?${query}`, { headers });
  const body: unknown = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(200);
  return RunSummaryPage.parse(body);
};
const ids = async (query: string): Promise<string[]> => (await page(query)).runs.map((r) => r.id);

async function start(fail?: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ workflow: 'filters', input: fail === undefined ? {} : { fail } }) });
  expect(r.status).toBe(201);
  const { runId } = (await r.json()) as { runId: string };
  await waitUntil(async () => (await page('workflow=filters')).runs.some((x) => x.id === runId && (x.state === 'failed' || x.state === 'succeeded')), `run ${runId} ends`);
  return runId;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-run-filters-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'filters.weft.json'), JSON.stringify(definition(1)));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  runs.v1ok = await start();
  runs.v1failA = await start('a');
  // A later creation time for the version 2 runs: the range filters split the two.
  const t = Date.now() + 5;
  await waitUntil(() => Promise.resolve(Date.now() > t), 'a later millisecond');
  between = new Date(t).toISOString();
  writeFileSync(join(workspace, 'filters.weft.json'), JSON.stringify(definition(2)));
  runs.v2failA = await start('a');
  runs.v2failB = await start('b');
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /api/runs, narrower filters', () => {
  it('selects by version', async () => {
    expect(await ids('version=1')).toEqual([runs.v1failA, runs.v1ok]);
    expect(await ids('workflow=filters&version=2')).toEqual([runs.v2failB, runs.v2failA]);
  });

  it('selects failed runs by the step they failed at, with or without a state', async () => {
    expect(await ids('failingStep=a')).toEqual([runs.v2failA, runs.v1failA]);
    expect(await ids('failingStep=b&state=failed')).toEqual([runs.v2failB]);
    expect(await ids('failingStep=a&version=1')).toEqual([runs.v1failA]);
    expect(await ids('failingStep=done')).toEqual([]);
  });

  it('selects by creation time, and combines with paging', async () => {
    expect(await ids(`createdAfter=${encodeURIComponent(between)}`)).toEqual([runs.v2failB, runs.v2failA]);
    expect(await ids(`createdBefore=${encodeURIComponent(between)}`)).toEqual([runs.v1failA, runs.v1ok]);
    const first = await page(`createdBefore=${encodeURIComponent(between)}&limit=1`);
    expect(first.runs.map((r) => r.id)).toEqual([runs.v1failA]);
    expect(await ids(`createdBefore=${encodeURIComponent(between)}&limit=1&after=${encodeURIComponent(first.next ?? '')}`)).toEqual([runs.v1ok]);
  });

  it('refuses a time that is not one, naming the parameter', async () => {
    const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs?createdAfter=yesterday`, { headers });
    expect(r.status).toBe(400);
    expect(JSON.stringify(await r.json())).toMatch(/createdAfter.*ISO date/);
    const v = await fetch(`http://127.0.0.1:${serving.port}/api/runs?version=0`, { headers });
    expect(v.status).toBe(400);
  });
});
