// `GET /api/runs?q=` over real HTTP and a real store: the runs list's text filter is done by the
// server (the app pages the list, so a filter in the browser would only see the loaded pages). It
// matches a substring of the workflow id or of the run id, combines with the other filters and
// with paging, and takes `%`, `_` and `\` literally.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSummaryPage } from '../../shared/api/run-summary.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let serving: Serving;
const started: Record<string, string[]> = { 'order-intake': [], 'order-x': [], 'refund': [] };

const get = async (path: string): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { headers });
  return { status: r.status, body: await r.json() };
};
const page = async (query: string): Promise<RunSummaryPage> => {
  const r = await get(`/api/runs?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return RunSummaryPage.parse(r.body);
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-run-search-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const id of Object.keys(started)) {
    writeFileSync(join(workspace, `${id}.weft.json`), JSON.stringify({
      format: 'weft/v1', id, version: 1, name: id,
      steps: [{ id: 'a', kind: 'transform', config: { expression: '1' } }, { id: 'done', kind: 'end' }],
      edges: [{ id: 'e', from: 'a', to: 'done' }],
    }));
  }
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  for (const [workflow, ids] of Object.entries(started)) {
    for (let i = 0; i < 3; i += 1) {
      const r = await fetch(`http://127.0.0.1:${serving.port}/api/runs`, { method: 'POST', headers, body: JSON.stringify({ workflow, input: {} }) });
      expect(r.status).toBe(201);
      ids.push(((await r.json()) as { runId: string }).runId);
    }
  }
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /api/runs?q=', () => {
  it('matches a substring of the workflow id', async () => {
    const got = await page('q=order');
    expect(new Set(got.runs.map((r) => r.id))).toEqual(new Set([...(started['order-intake'] ?? []), ...(started['order-x'] ?? [])]));
    expect((await page('q=fun')).runs.map((r) => r.workflowId)).toEqual(['refund', 'refund', 'refund']);
  });

  it('matches a substring of the run id', async () => {
    const id = started['refund']?.[1] ?? '';
    const got = await page(`q=${encodeURIComponent(id.slice(2, 9))}`);
    expect(got.runs.map((r) => r.id)).toContain(id);
    expect(got.runs.every((r) => r.id.includes(id.slice(2, 9)) || r.workflowId.includes(id.slice(2, 9)))).toBe(true);
  });

  it('takes LIKE wildcards literally', async () => {
    expect((await page('q=order_')).runs).toEqual([]);
    expect((await page('q=der-')).runs).toHaveLength(6);
    expect((await page('q=%25')).runs).toEqual([]);
    expect((await page('q=%5C')).runs).toEqual([]);
  });

  it('combines with the other filters and pages with next', async () => {
    expect((await page('q=order&workflow=refund')).runs).toEqual([]);
    const first = await page('q=order&limit=4');
    expect(first.runs).toHaveLength(4);
    expect(first.next).not.toBeNull();
    const second = await page(`q=order&limit=4&after=${encodeURIComponent(first.next ?? '')}`);
    expect(second.runs).toHaveLength(2);
    expect(second.next).toBeNull();
    expect(new Set([...first.runs, ...second.runs].map((r) => r.id)).size).toBe(6);
  });

  it('refuses a text over 200 characters, saying where', async () => {
    const r = await get(`/api/runs?q=${'x'.repeat(201)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'bad-input', path: '$.q' } });
  });
});
