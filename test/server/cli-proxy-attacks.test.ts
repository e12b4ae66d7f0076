// Issue 19, item 9: a page that holds the token (an injected script in it, say) must not reach the
// user's files through the server. Over a real `weft serve` on 127.0.0.1, with its token, nothing
// a request can send creates a store elsewhere, reads a JSON file from elsewhere, tells a missing
// file from an unreadable one, runs a workflow file from another path, or acts on the runs of
// another `weft serve` of the same user. Terminal commands reach the server as typed commands
// (POST /api/commands) that carry content, never a path, a working folder, a store or argv.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeChild } from '../cli/serve-child.ts';

const hello = {
  format: 'weft/v1',
  id: 'hello',
  version: 1,
  name: 'Hello',
  steps: [
    { id: 'greet', kind: 'transform', config: { expression: '{"hello": input}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'greet', to: 'done' }],
};

const waiting = {
  format: 'weft/v1',
  id: 'wait',
  version: 1,
  name: 'Waits for an event',
  steps: [
    { id: 'go', kind: 'event', deadlineMs: 3_600_000, config: { name: 'go', correlationKey: '"k"' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'go', to: 'done' }],
};

const SECRET = 'sk-SECRET-4f1d9c';

let root: string;
let ws: string;
let wsB: string;
let outside: string;
let a: ServeChild;
let b: ServeChild;
let storeA: string;
let storeB: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-proxy-'));
  ws = join(root, 'ws');
  wsB = join(root, 'ws-b');
  outside = join(root, 'outside');
  for (const d of [ws, wsB, outside]) mkdirSync(d);
  writeFileSync(join(ws, 'hello.weft.json'), JSON.stringify(hello));
  writeFileSync(join(wsB, 'wait.weft.json'), JSON.stringify(waiting));
  writeFileSync(join(outside, 'secret.json'), JSON.stringify({ apiKey: SECRET }));
  writeFileSync(join(outside, 'evil.weft.json'), JSON.stringify({ ...hello, id: 'evil', name: 'Not in any workspace' }));
  const env = { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: undefined, WEFT_TOKEN: undefined, WEFT_USER: 'tester' };
  [a, b] = await Promise.all([startServe(['--workspace', ws], root, env), startServe(['--workspace', wsB], root, env)]);
  storeA = ((await a.api('GET', '/api/health')).body as { store: string }).store;
  storeB = ((await b.api('GET', '/api/health')).body as { store: string }).store;
  expect(storeA).toBe(join(ws, '.weft', 'weft.db'));
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

/** What the old argv route took: a command line, a working folder and the store it claims. */
const argvRequest = (argv: string[], cwd = ws) => a.api('POST', '/api/cli', { argv, cwd, db: storeA });

/** Every value of every run of server A, as JSON text, to search for what must not be there. */
async function everythingServerAShows(): Promise<string> {
  const { runs } = (await a.api('GET', '/api/runs')).body as { runs: { id: string }[] };
  const details = await Promise.all(runs.map(async (r) => JSON.stringify((await a.api('GET', `/api/runs/${r.id}`)).body)));
  return JSON.stringify(runs) + details.join('\n');
}

describe('a request holding the token', () => {
  it('creates no store elsewhere with --db in a command line', async () => {
    const target = join(outside, 'made', 'by', 'db', 'new.db');
    const answer = await argvRequest(['run', 'hello.weft.json', '--db', target]);
    expect(existsSync(join(outside, 'made'))).toBe(false);
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it('creates no store in another working folder', async () => {
    const elsewhere = join(outside, 'cwd-target');
    mkdirSync(elsewhere);
    const answer = await argvRequest(['run', join(ws, 'hello.weft.json')], elsewhere);
    expect(existsSync(join(elsewhere, '.weft'))).toBe(false);
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it('leaves an existing empty file empty (it never becomes a SQLite database)', async () => {
    const empty = join(outside, 'empty.db');
    writeFileSync(empty, '');
    const answer = await argvRequest(['run', 'hello.weft.json', '--db', empty]);
    expect(statSync(empty).size).toBe(0);
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it('reads no JSON file from elsewhere into a run (--input @file)', async () => {
    const secretFile = join(outside, 'secret.json');
    await argvRequest(['run', 'hello.weft.json', '--input', `@${secretFile}`]);
    expect(await everythingServerAShows()).not.toContain(SECRET);
    // The typed command carries the input itself: "@file" there is a string, never a path.
    const typed = await a.api('POST', '/api/commands', { command: 'run', definition: JSON.stringify(hello), input: `@${secretFile}` });
    expect(typed.status).toBe(200);
    const { runId } = typed.body as { runId: string };
    const detail = (await a.api('GET', `/api/runs/${runId}`)).body as { run: { input: unknown } };
    expect(detail.run.input).toBe(`@${secretFile}`);
    expect(await everythingServerAShows()).not.toContain(SECRET);
  });

  it('cannot tell a missing file from an unreadable one, nor see a file\'s first character', async () => {
    const missing = join(outside, 'missing.json');
    const locked = join(outside, 'locked.json');
    const text = join(outside, 'notes.txt');
    writeFileSync(locked, 'Zebra');
    chmodSync(locked, 0o000);
    writeFileSync(text, 'Quokka');
    const answers = [];
    for (const file of [missing, locked, text]) answers.push(await argvRequest(['run', 'hello.weft.json', '--input', `@${file}`]));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toMatch(/'Z'|'Q'|"Z"|"Q"|Zebra|Quokka|ENOENT|EACCES/);
  });

  it('runs no workflow file from another path', async () => {
    await argvRequest(['run', join(outside, 'evil.weft.json')]);
    await a.api('POST', '/api/commands', { command: 'run', file: join(outside, 'evil.weft.json'), input: {} });
    const { runs } = (await a.api('GET', '/api/runs')).body as { runs: { workflowId: string }[] };
    expect(runs.map((r) => r.workflowId)).not.toContain('evil');
    expect((await a.api('GET', '/api/workflows/evil/versions/1')).status).toBe(404);
  });

  it('cannot act on the runs of another weft serve of the same user', async () => {
    const started = await b.api('POST', '/api/runs', { workflow: 'wait', input: {} });
    expect(started.status).toBe(201);
    const { runId } = started.body as { runId: string };
    await argvRequest(['cancel', runId, '--db', storeB, '--reason', 'not yours']);
    await a.api('POST', '/api/commands', { command: 'act', run: runId, action: { action: 'cancel', reason: 'not yours' } });
    const detail = (await b.api('GET', `/api/runs/${runId}`)).body as { run: { state: string } };
    expect(detail.run.state).toBe('waiting');
  });

  it('finds no path, working folder, store or argv in the typed command route', async () => {
    const smuggled: Record<string, unknown>[] = [
      { command: 'run', definition: JSON.stringify(hello), input: {}, db: join(outside, 'x.db') },
      { command: 'run', definition: JSON.stringify(hello), input: {}, cwd: outside },
      { command: 'run', definition: JSON.stringify(hello), input: {}, workspaceDir: outside },
      { command: 'act', run: 'r1', action: { action: 'cancel' }, argv: ['cancel', 'r1'] },
      { command: 'send', event: { name: 'go', key: 'k' }, store: storeB },
    ];
    for (const body of smuggled) {
      const answer = await a.api('POST', '/api/commands', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as { error: { code: string; message: string } }).error.message).toMatch(/unknown field/);
    }
    expect(existsSync(join(outside, 'x.db'))).toBe(false);
    expect(existsSync(join(outside, '.weft'))).toBe(false);
  });

  it('runs code only from a workflow file of its own workspace', async () => {
    // A definition sent as content that is no file of the workspace runs only when it needs no
    // folder: a command step would run in some folder the request chose, or the server guessed.
    const marker = join(outside, 'ran.txt');
    const code = { ...hello, id: 'code', steps: [{ id: 'greet', kind: 'command', config: { argv: ['sh', '-c', `echo ran > '${marker}'; echo '{}'`] } }, { id: 'done', kind: 'end' }] };
    const answer = await a.api('POST', '/api/commands', { command: 'run', definition: JSON.stringify(code), input: {} });
    expect(answer.status).toBe(409);
    expect((answer.body as { error: { message: string } }).error.message).toMatch(/is not a workflow file of the workspace .*\bws\b/);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(ws, 'hello.weft.json'), 'utf8')).toBe(JSON.stringify(hello));
  });
});
