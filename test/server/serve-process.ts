// The real `weft serve` in a child process, for tests that must see whether a fault ends the
// process (an in-process server would take the test runner down with it). It runs on a folder of
// the test's own, with its own store and config, and a token the test chooses (WEFT_TOKEN).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const BIN = new URL('../../bin/weft.js', import.meta.url).pathname;

export const SERVE_TOKEN = 'serve-process-token-0123456789abcdefghijklmnopqrstuvwxyz';

export interface ServeProcess {
  url: string;
  root: string;
  db: string;
  /** serve.json beside the store. */
  endpointFile: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<string>;
  stderr(): string;
  /** Ctrl-C, then the folder is removed. */
  stop(): Promise<void>;
}

/** Starts `weft serve` on a new folder holding `workflows` (one file each, named by id). */
export async function startServeProcess(workflows: readonly { id: string }[]): Promise<ServeProcess> {
  const root = mkdtempSync(join(tmpdir(), 'weft-serve-process-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const w of workflows) writeFileSync(join(workspace, `${w.id}.weft.json`), JSON.stringify(w));
  const db = join(root, 'weft.db');
  const env = { ...process.env, WEFT_TOKEN: SERVE_TOKEN, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: db };
  const child = spawn(process.execPath, [BIN, 'serve', '--workspace', workspace, '--db', db], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`exit code ${String(code)}, signal ${String(signal)}`)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /Weft Studio: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((how) => reject(new Error(`weft serve ended before it was ready (${how})\n${err}`)));
  });
  return {
    url,
    root,
    db,
    endpointFile: join(root, 'serve.json'),
    child,
    exited,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A WebSocket to `/api/stream` with the token; `maxPayload` as large as a test needs to see. */
export function openStream(url: string, token: string, maxPayload = 1024 * 1024 * 1024): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/stream`, ['weft', `weft.bearer.${token}`], { maxPayload });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** POST /api/runs, refusing anything but 201. */
export async function startRun(url: string, token: string, workflow: string, input: unknown): Promise<string> {
  const r = await fetch(`${url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow, input }) });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`starting a run of ${workflow} answered ${r.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { runId: string }).runId;
}

/** Waits until every run the server lists has ended (none running, waiting or queued). */
export async function allRunsEnded(url: string, token: string): Promise<void> {
  for (;;) {
    const r = await fetch(`${url}/api/runs?limit=500`, { headers: { authorization: `Bearer ${token}` } });
    const { runs } = (await r.json()) as { runs: { state: string }[] };
    if (runs.every((run) => ['succeeded', 'failed', 'cancelled'].includes(run.state))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A chain of `length` transforms, each passing its whole input on: every value is stored 2 × length + 1 times. */
export function passThroughChain(id: string, length: number) {
  const ids = Array.from({ length }, (_, i) => `s${i}`);
  return {
    format: 'weft/v1',
    id,
    version: 1,
    name: `Pass-through chain ${id}`,
    steps: [...ids.map((s, i) => ({ id: s, kind: 'transform', input: i === 0 ? 'input' : `steps.s${i - 1}.output`, config: { expression: 'input' } })), { id: 'done', kind: 'end' }],
    edges: [...ids.slice(1).map((s, i) => ({ id: `e${i}`, from: `s${i}`, to: s })), { id: 'last', from: ids[ids.length - 1] ?? 's0', to: 'done' }],
  };
}
