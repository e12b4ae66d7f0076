// What the supervisor tests share: a temporary workspace whose one workflow calls an HTTP server
// on 127.0.0.1 that holds its answer until the test releases it (so a run is in the middle of an
// attempt when the engine is killed, however slow the machine), the real `weft serve` command line
// for it, and small API helpers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '../wait-until.ts';

export const WEFT_BIN = fileURLToPath(new URL('../../bin/weft.js', import.meta.url));

export const slowFlow = {
  format: 'weft/v1',
  id: 'slow',
  version: 1,
  name: 'Slow call',
  steps: [
    { id: 'call', kind: 'http', config: { method: 'GET', url: '{{ input.api }}/slow' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'call', to: 'done' }],
};

export interface EngineFixture {
  root: string;
  workspace: string;
  db: string;
  env: Record<string, string>;
  /** `weft serve` for the workspace, as the supervisor runs it. */
  args: string[];
  remove(): void;
}

export function engineFixture(): EngineFixture {
  const root = mkdtempSync(join(tmpdir(), 'weft-supervisor-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'slow.weft.json'), JSON.stringify(slowFlow));
  const db = join(root, 'weft.db');
  return {
    root,
    workspace,
    db,
    env: { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'supervisor-test' },
    args: [WEFT_BIN, 'serve', '--workspace', workspace, '--db', db],
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface SlowApi {
  url: string;
  /** Requests received so far. */
  requests(): number;
  /** Answers the requests held so far, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/** Answers GET /slow with {ok: true}, but only once release() has been called: until then it holds every request. */
export async function startSlowApi(): Promise<SlowApi> {
  let requests = 0;
  let released = false;
  const held = new Set<ServerResponse>();
  const answer = (res: ServerResponse): void => {
    held.delete(res);
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  };
  const server: Server = createServer((_req, res) => {
    requests += 1;
    held.add(res);
    if (released) answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    release: () => {
      released = true;
      for (const res of [...held]) answer(res);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` holds (state, not time: the bound only stops a broken test). */
export function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  return waitUntil(check, what);
}

export async function api(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

/** The health route answers 200 with this token; false for any failure to connect. */
export async function healthy(url: string, token: string): Promise<boolean> {
  try {
    return (await api(url, token, 'GET', '/api/health')).status === 200;
  } catch {
    return false;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
