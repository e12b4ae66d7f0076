// Which `weft serve` a terminal's command goes to, if any: only the one that owns the very store
// the command names, found through a serve.json that is the user's own. A server of another store
// in the same folder, or an endpoint file anyone else could have written, is passed over and the
// command runs on its own. A server that drops the command after taking it is not followed by a
// second run here. And a workflow file kept outside the server's workspace that runs commands is
// refused by the server (it never takes a folder from a request), with a message saying what to do.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';
import { startServe, type ServeChild } from './serve-child.ts';

const root = mkdtempSync(join(tmpdir(), 'weft-owner-'));
const ws = join(root, 'ws');
const env = { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'tester', WEFT_LEASE_WAIT_MS: '0' };

const hello = {
  format: 'weft/v1',
  id: 'hello',
  version: 1,
  name: 'Hello',
  steps: [{ id: 'greet', kind: 'transform', config: { expression: '{"hello": input}' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'greet', to: 'done' }],
};

beforeAll(() => {
  mkdirSync(ws);
  writeFileSync(join(ws, 'hello.weft.json'), JSON.stringify(hello));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const runIds = async (db: string): Promise<string[]> => {
  const r = await runWeft(['runs', '--db', db, '--json'], ws, { env });
  return (JSON.parse(r.stdout) as { runs: { id: string }[] }).runs.map((x) => x.id);
};

describe('with a real weft serve', () => {
  let server: ServeChild;
  const owned = join(root, 'stores', 'owned.db');
  beforeAll(async () => {
    mkdirSync(join(root, 'stores'));
    server = await startServe(['--workspace', ws, '--db', owned], root, { ...env, WEFT_DB: undefined, WEFT_LEASE_WAIT_MS: undefined });
  }, 60_000);
  afterAll(() => server.stop());

  it('a command on another store of the same folder runs on its own, on that store', async () => {
    const other = join(root, 'stores', 'other.db');
    const r = await runWeft(['run', 'hello.weft.json', '--db', other, '--json'], ws, { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    expect(await runIds(other)).toEqual([runId]);
    expect(((await server.api('GET', '/api/runs')).body as { runs: unknown[] }).runs).toEqual([]);
  });

  it('a file outside the workspace that runs commands is refused, saying what to do', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const marker = join(outside, 'ran.txt');
    writeFileSync(join(outside, 'code.weft.json'), JSON.stringify({ ...hello, id: 'code', steps: [{ id: 'greet', kind: 'command', config: { argv: ['sh', '-c', `echo ran > '${marker}'; echo '{}'`] } }, { id: 'done', kind: 'end' }] }));
    expect((await runWeft(['trust', outside], ws, { env })).code).toBe(0);
    const r = await runWeft(['run', join(outside, 'code.weft.json'), '--db', owned], ws, { env });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `weft run: workflow "code" runs commands, scripts or child workflows from its own folder (greet), and it is not a workflow file of the workspace ${ws} that this weft serve runs: a server runs such a workflow only from a file of its workspace; move the file into ${ws}, or stop weft serve, or run it on another store (--db PATH); nothing was run\n`,
    );
    expect(r.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('with a stand-in server on 127.0.0.1', () => {
  const dir = join(root, 'fake');
  const db = join(dir, 'weft.db');
  const posts: string[] = [];
  let fake: Server;
  let url = '';
  let dropPosts = false;

  beforeAll(async () => {
    mkdirSync(dir);
    // A real store, made by a run on its own.
    expect((await runWeft(['run', 'hello.weft.json', '--db', db], ws, { env })).code).toBe(0);
    fake = createServer((req: IncomingMessage, res) => {
      if (req.method === 'GET' && req.url === '/api/health') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ version: 'x', workspace: ws, store: db }));
        return;
      }
      posts.push(`${req.method ?? ''} ${req.url ?? ''}`);
      if (dropPosts) req.socket.destroy();
      else res.writeHead(500).end();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => fake.close(() => r())));

  const endpoint = (mode: number) => {
    const file = join(dir, 'serve.json');
    writeFileSync(file, JSON.stringify({ url, port: Number(new URL(url).port), token: 't', pid: process.pid, workspace: ws }));
    chmodSync(file, mode);
  };

  it('passes over an endpoint file that others may write, and runs the command on its own', async () => {
    endpoint(0o666);
    const before = await runIds(db);
    const r = await runWeft(['run', 'hello.weft.json', '--db', db, '--json'], ws, { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(posts).toEqual([]);
    expect(await runIds(db)).toHaveLength(before.length + 1);
  });

  it('does not run a command a second time when the server dropped it after taking it', async () => {
    endpoint(0o600);
    dropPosts = true;
    const before = await runIds(db);
    const r = await runWeft(['run', 'hello.weft.json', '--db', db], ws, { env });
    expect(posts).toEqual(['POST /api/commands']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^weft run: the weft serve that owns ${db.replace(/[.]/g, '\\.')} \\(${url}\\) stopped before it answered \\(.+\\); the command may have been carried out: look with weft runs or weft inspect before you run it again\\n$`));
    expect(r.code).toBe(2);
    expect(await runIds(db)).toEqual(before);
  });
});
