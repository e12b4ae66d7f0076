// POST /api/workflows/:id/migrate and POST /api/runs/:id/migrate on the real server over a real
// store: research-review v2 runs waiting on a person, v3 (a `notify` step after the review) saved
// from the editor's route; the workflow's plan (dryRun) lists every waiting run and writes nothing,
// applying moves them, and each, approved, finishes on v3 with notify run. A bad body is refused.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MigrationReport } from '../../shared/api/migration.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { storeDigest as digestOf } from '../store-digest.ts';
import { waitUntil } from '../wait-until.ts';

type Json = Record<string, unknown>;
const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const example = JSON.parse(readFileSync(join(import.meta.dirname, '../../examples/research-review.weft.json'), 'utf8')) as Json & { steps: Json[]; edges: Json[] };
let root = '';
let serving: Serving;
const runs: string[] = [];

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${serving.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}
const detail = async (id: string): Promise<{ run: { state: string; version: number }; steps: { id: string; state: string }[] }> =>
  (await call('GET', `/api/runs/${id}`)).body as { run: { state: string; version: number }; steps: { id: string; state: string }[] };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-migrate-routes-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'research-review.weft.json'), JSON.stringify(example));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'ana' };
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env });
  for (let i = 0; i < 2; i++) {
    const started = await call('POST', '/api/runs', { workflow: 'research-review', input: { topic: `topic ${i}` } });
    runs.push((started.body as { runId: string }).runId);
  }
  for (const id of runs) await waitUntil(async () => (await detail(id)).run.state === 'waiting', `run ${id} waiting`);
  const v3 = {
    ...example,
    version: 3,
    steps: [...example.steps, { id: 'notify', kind: 'transform', config: { expression: '{ "title": steps.draft.output.title }' } }],
    edges: [...example.edges.filter((e) => e.id !== 'review_approved'), { id: 'review_to_notify', from: 'review', to: 'notify', on: 'succeeded' }, { id: 'notify_approved', from: 'notify', to: 'approved' }],
  };
  expect((await call('PUT', '/api/workflows/research-review', { definition: v3 })).status).toBe(200);
});

afterAll(async () => {
  await serving?.stop();
});

it('plans every waiting run of v2 with dryRun (writing nothing), then migrates them, and they finish on v3', async () => {
  const before = digestOf(join(root, 'weft.db'));
  const plan = await call('POST', '/api/workflows/research-review/migrate', { toVersion: 3, fromVersion: 2, dryRun: true });
  expect(plan.status).toBe(200);
  const planned = MigrationReport.parse(plan.body);
  expect(planned.runs.map((r) => [r.plan.runId, r.plan.verdict, r.applied]).sort()).toEqual(runs.map((id) => [id, 'safe', false]).sort());
  expect(digestOf(join(root, 'weft.db'))).toBe(before);

  const one = MigrationReport.parse((await call('POST', `/api/runs/${runs[0]}/migrate`, { toVersion: 3, by: 'ana', reason: 'notify on approval' })).body);
  expect(one.runs.map((r) => r.applied)).toEqual([true]);
  const rest = MigrationReport.parse((await call('POST', '/api/workflows/research-review/migrate', { toVersion: 3 })).body);
  expect(rest.runs.map((r) => [r.plan.runId, r.applied])).toEqual([[runs[1], true]]);

  for (const id of runs) {
    expect((await detail(id)).run.version).toBe(3);
    expect((await call('POST', `/api/tasks/${id}/review`, { action: 'approve', by: 'ed' })).status).toBe(200);
    await waitUntil(async () => (await detail(id)).run.state === 'succeeded', `run ${id} succeeded`);
    expect((await detail(id)).steps.find((s) => s.id === 'notify')?.state).toBe('succeeded');
  }
});

it('refuses a body that is not a MigrateCommand, naming the field', async () => {
  const r = await call('POST', `/api/runs/${runs[0]}/migrate`, { toVersion: 'three' });
  expect(r.status).toBe(400);
  expect(JSON.stringify(r.body)).toMatch(/toVersion/);
});
