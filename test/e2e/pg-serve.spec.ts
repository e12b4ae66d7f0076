// `weft serve --store postgres://… --no-worker` with two `weft worker` processes (issue 25,
// docs/scale-out.md): runs started from the app are taken by the workers and finish, each worker
// finishing one. The runs' http step calls a stand-in API that answers nobody until two calls are
// in flight, and each worker takes one run at a time (--max-runs 1): so neither run can finish
// unless both workers drive one. The app's header says which store it is and how many workers
// are alive.
import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { openPgDb } from '../../engine/store/pg/open-pg-store.ts';
import { pgInstalled, startCluster, type PgCluster } from '../fixtures/pg/cluster.ts';
import { BIN, exampleWorkspace, listenLoopback, shootBothThemes, startServe, type Loopback, type Served, type Workspace } from './weft-serve.ts';

test.describe.configure({ mode: 'serial' });
test.skip(!pgInstalled() && process.env['CI'] !== 'true', 'no PostgreSQL binaries here (apt-get install postgresql)');

let pg: PgCluster | undefined;
let ws: Workspace | undefined;
let served: Served | undefined;
let api: Loopback | undefined;
let page: Page | undefined;
const workers: ChildProcess[] = [];
const held: ServerResponse[] = [];
let calls = 0;
const SCHEMA = 'e2e';

function startWorker(url: string, env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'worker', '--store', url, '--max-runs', '1', '--lease-ttl-ms', '5000'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  workers.push(child);
  return child;
}

function leases(): { owner: string | null; pid: number | null }[] {
  const db = openPgDb(pg?.url ?? '', { schema: SCHEMA, create: false });
  try {
    return db.prepare('SELECT l.owner, w.pid FROM run_leases l LEFT JOIN weft_workers w ON w.id = l.owner ORDER BY l.run_id').all() as { owner: string | null; pid: number | null }[];
  } finally {
    db.close();
  }
}

test.beforeAll(async ({ browser }) => {
  pg = startCluster();
  ws = exampleWorkspace();
  // Two calls must be in flight before either is answered.
  api = await listenLoopback((req, res) => {
    req.resume();
    calls++;
    held.push(res);
    if (held.length < 2) return;
    for (const r of held.splice(0)) r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  writeFileSync(`${ws.dir}/relay.weft.json`, JSON.stringify({
    format: 'weft/v1',
    id: 'relay',
    version: 1,
    name: 'Relay',
    steps: [
      { id: 'call', kind: 'http', config: { method: 'GET', url: `${api.url}/call` } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'e1', from: 'call', to: 'done' }],
  }));
  const url = `${pg.url}?schema=${SCHEMA}`;
  served = await startServe(ws, undefined, { url, noWorker: true });
  startWorker(url, ws.env, ws.dir);
  startWorker(url, ws.env, ws.dir);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await Promise.all(workers.map((w) => new Promise<void>((r) => (w.exitCode !== null ? r() : (w.once('exit', () => r()), w.kill('SIGTERM'))))));
  await api?.close();
  ws?.remove();
  pg?.stop();
});

async function startFromApp(p: Page): Promise<string> {
  await p.getByTestId('nav-runs').click();
  await p.getByTestId('action-start-run').click();
  await p.getByTestId('start-workflow-relay').click();
  const dialog = p.getByTestId('dialog-start-run');
  await dialog.getByTestId('submit-action').click();
  await expect(p).toHaveURL(/#\/run\//);
  return decodeURIComponent(/#\/run\/([^/?#]+)/.exec(p.url())?.[1] ?? '');
}

test('runs started from the app are finished by the two workers, one each; the header names the store and its workers', async () => {
  const p = page as Page;
  await p.goto(served?.address ?? '');
  const badge = p.getByTestId('store-badge');
  await expect(badge).toContainText('PostgreSQL');
  await expect(badge).toContainText('2 workers');

  const first = await startFromApp(p);
  const second = await startFromApp(p);
  expect(second).not.toBe(first);
  await expect(p.getByTestId('run-state')).toHaveText('succeeded');
  await p.goto(`${served?.url ?? ''}/#/run/${first}`);
  await expect(p.getByTestId('run-state')).toHaveText('succeeded');
  expect(calls).toBe(2);

  // Each run was finished by a different worker: the two processes started above.
  const owners = leases();
  expect(owners).toHaveLength(2);
  const pids = new Set(owners.map((o) => o.pid));
  expect(pids).toEqual(new Set(workers.map((w) => w.pid)));

  await p.goto(`${served?.url ?? ''}/#/runs`);
  await expect(p.getByTestId(`run-row-${first}`)).toBeVisible();
  await expect(p.getByTestId(`run-row-${second}`)).toBeVisible();
  await shootBothThemes(p, 'pg-serve-runs', { badge, first: p.getByTestId(`run-row-${first}`), second: p.getByTestId(`run-row-${second}`) });
});
