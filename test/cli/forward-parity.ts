// The scenario of the forward-parity tests (forward-parity-*-cli.test.ts): a terminal's command
// that changes a store prints exactly what it prints alone while a `weft serve` owns that store:
// the same bytes on stdout and stderr and the same exit code, in text and --json, whether the
// store is chosen by default (./.weft/weft.db), by WEFT_DB or by --db, with @file inputs and
// workflow files the CLI reads itself. Each part of the scenario (one way of choosing the store)
// runs twice in the same folders: once with no server, once while `weft serve` owns the store; the
// transcripts must match, run ids aside. The served pass also shows that the commands went to the
// server (a lease wait of 0 would fail any that did not), that the runs are in the store the
// server shows, and that WEFT_DB never makes a second store. The three parts are three files, so
// the suite's two workers share them: each part has its own folders, store and server.
import { mkdirSync, existsSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runWeft, type WeftResult } from './run-weft.ts';
import { startServe, type ServeChild } from './serve-child.ts';

const END = { id: 'done', kind: 'end' };
const files: Record<string, unknown> = {
  'ws/handoff.weft.json': {
    format: 'weft/v1',
    id: 'handoff',
    version: 1,
    name: 'Wait for go, then approval',
    input: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    steps: [
      { id: 'go', kind: 'event', deadlineMs: 3_600_000, config: { name: 'go', correlationKey: 'input.key' } },
      {
        id: 'ok',
        kind: 'human',
        deadlineMs: 3_600_000,
        config: { task: 'approve', title: 'Ship {{ input.key }}', form: { type: 'object', properties: { carrier: { type: 'string' } }, required: ['carrier'] } },
      },
      END,
      { id: 'refused', kind: 'end', config: { status: 'failed' } },
    ],
    edges: [
      { id: 'e1', from: 'go', to: 'ok' },
      { id: 'e2', from: 'ok', to: 'done' },
      { id: 'e3', from: 'ok', to: 'refused', on: 'rejected' },
    ],
  },
  'ws/sort.weft.json': {
    format: 'weft/v1',
    id: 'sort',
    version: 1,
    name: 'Sort a ticket',
    steps: [{ id: 'pick', kind: 'human', deadlineMs: 3_600_000, config: { task: 'classify', title: 'Which queue?', options: ['billing', 'tech'] } }, END],
    edges: [{ id: 'e1', from: 'pick', to: 'done' }],
  },
  'ws/quote.weft.json': {
    format: 'weft/v1',
    id: 'quote',
    version: 1,
    name: 'Quote',
    steps: [
      { id: 'price', kind: 'transform', config: { expression: '{"customer": input.customer, "cents": input.qty * 250}' } },
      { id: 'send_quote', kind: 'agent', effect: 'external', onExhausted: 'escalate', input: 'steps.price.output', config: { provider: 'mock', prompt: 'send it', mock: { replies: [{ output: { sent: true } }] } } },
      END,
    ],
    edges: [
      { id: 'e1', from: 'price', to: 'send_quote' },
      { id: 'e2', from: 'send_quote', to: 'done' },
    ],
  },
  'ws/flaky.weft.json': {
    format: 'weft/v1',
    id: 'flaky',
    version: 1,
    name: 'A payment whose reply is lost',
    steps: [
      {
        id: 'pay',
        kind: 'agent',
        effect: 'external',
        onExhausted: 'escalate',
        timeoutMs: 100,
        output: { type: 'object', properties: { paid: { type: 'boolean' } }, required: ['paid'] },
        config: { provider: 'mock', prompt: 'pay', mock: { replies: [{ output: { paid: true }, delayMs: 600_000 }] } },
      },
      END,
    ],
    edges: [{ id: 'e1', from: 'pay', to: 'done' }],
  },
  'ws/debug.weft.json': {
    format: 'weft/v1',
    id: 'debug',
    version: 1,
    name: 'An expensive call, then two cheap steps',
    steps: [
      { id: 'expensive', kind: 'transform', config: { expression: '{"answer": "real"}' } },
      { id: 'shape', kind: 'transform', config: { expression: 'steps.expensive.output' } },
      { id: 'finish', kind: 'transform', config: { expression: 'steps.shape.output' } },
      END,
    ],
    edges: [
      { id: 'e1', from: 'expensive', to: 'shape' },
      { id: 'e2', from: 'shape', to: 'finish' },
      { id: 'e3', from: 'finish', to: 'done' },
    ],
  },
  // A workflow that runs a command from its own folder (a subfolder of the workspace, trusted).
  'ws/sub/where.weft.json': {
    format: 'weft/v1',
    id: 'where',
    version: 1,
    name: 'Where does it run?',
    steps: [{ id: 'cwd', kind: 'command', config: { argv: ['sh', '-c', 'printf \'{"cwd": "%s"}\' "$(pwd)"'] } }, END],
    edges: [{ id: 'e1', from: 'cwd', to: 'done' }],
  },
  // No file of the workspace, and nothing in it needs a folder: the CLI sends it as content.
  'elsewhere/loose.weft.json': {
    format: 'weft/v1',
    id: 'loose',
    version: 1,
    name: 'A workflow kept outside the workspace',
    steps: [{ id: 'add', kind: 'transform', config: { expression: 'input.a + input.b' } }, END],
    edges: [{ id: 'e1', from: 'add', to: 'done' }],
  },
  'ws/inputs/key-a.json': { key: 'A' },
  'ws/inputs/bad-key.json': { key: 5 },
  'ws/inputs/event.json': { paid: 12 },
  'ws/inputs/form.json': { carrier: 'dhl' },
  'ws/inputs/bad-form.json': { carrier: 7 },
  'ws/inputs/evidence.json': { paid: true },
  'ws/inputs/output.json': { paid: false },
  'ws/inputs/quote-3.json': { customer: 'ACME', qty: 3 },
  'ws/inputs/pin.json': { answer: 'pinned' },
  'elsewhere/sum.json': { a: 2, b: 3 },
};
const texts: Record<string, string> = {
  'ws/broken.weft.json': '{"format": "weft/v1", "id": "broken", "version": 1, "name": "Broken", "steps": [{"id": "a", "kind": "nope"}], "edges": []}',
  'ws/inputs/not-json.txt': 'Quokka',
};

/** How a command picks the store: by default in the workspace, by WEFT_DB, or by a relative --db. */
export type Mode = 'default' | 'env' | 'flag';

interface Entry {
  args: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** The folders of one file's scenario: its own temporary root, workspace, store and config. */
interface Tree {
  root: string;
  tree: string;
  ws: string;
  elsewhere: string;
  store: string;
  env: Record<string, string>;
}

function newTree(): Tree {
  const root = mkdtempSync(join(tmpdir(), 'weft-parity-'));
  const tree = join(root, 'tree');
  const ws = join(tree, 'ws');
  return { root, tree, ws, elsewhere: join(tree, 'elsewhere'), store: join(ws, '.weft', 'weft.db'), env: { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'tester', WEFT_LEASE_WAIT_MS: '0' } };
}

function makeTree(t: Tree): void {
  rmSync(t.tree, { recursive: true, force: true });
  for (const [path, value] of Object.entries(files)) write(t, path, JSON.stringify(value));
  for (const [path, text] of Object.entries(texts)) write(t, path, text);
  mkdirSync(t.elsewhere, { recursive: true });
}

function write(t: Tree, path: string, text: string): void {
  const full = join(t.tree, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}

/** Runs `weft ARGS` with the store chosen by the mode; `{NAME}` in an argument is a run id learned earlier, `save` names the run id printed. */
type Weft = (args: string[], save?: string) => Promise<WeftResult>;

/** Each mode's commands, in order (the part of the scenario one file runs). */
const PARTS: Record<Mode, (weft: Weft) => Promise<void>> = {
  // The default store, from the workspace: run, send, approve, reject, reassign, and their refusals.
  async default(weft) {
    await weft(['run', 'handoff.weft.json', '--input', '@inputs/key-a.json', '--json'], 'H1');
    await weft(['run', 'handoff.weft.json', '--input', '@inputs/bad-key.json']);
    await weft(['run', 'handoff.weft.json', '--input', '@inputs/missing.json']);
    await weft(['run', 'handoff.weft.json', '--input', '@inputs/not-json.txt']);
    await weft(['run', 'broken.weft.json']);
    await weft(['run', 'no-such.weft.json']);
    await weft(['send', 'go', '--key', 'B', '--id', 'ev-kept']);
    await weft(['send', 'go', '--key', 'A', '--id', 'ev-1', '--data', '@inputs/event.json', '--json']);
    await weft(['send', 'go', '--key', 'A', '--id', 'ev-1']);
    await weft(['send', 'go', '--key', 'A', '--id', 'ev-2', '--data', '@inputs/missing.json']);
    await weft(['send', 'nope', '--key', 'A']);
    await weft(['approve', '{H1}', 'ok', '--data', '@inputs/bad-form.json']);
    await weft(['reassign', '{H1}', 'ok', '--to', 'ana']);
    await weft(['reassign', '{H1}', 'ok', '--to', 'ana', '--by', ' ']);
    await weft(['approve', '{H1}', 'ok', '--data', '@inputs/form.json', '--by', 'ana', '--json']);
    await weft(['approve', '{H1}', 'ok']);
    await weft(['approve', 'rnosuchrun', 'ok']);
    await weft(['run', 'sort.weft.json', '--json'], 'S1');
    await weft(['approve', '{S1}', 'pick', '--choice', 'nowhere']);
    await weft(['approve', '{S1}', 'pick', '--choice', 'tech']);
    await weft(['run', 'handoff.weft.json', '--input', '{"key": "C"}'], 'H2');
    await weft(['send', 'go', '--key', 'C', '--id', 'ev-c', '--json']);
    await weft(['reject', '{H2}', 'ok', '--reason', 'wrong carrier', '--json']);
    await weft(['run', 'sub/where.weft.json', '--json'], 'W1');
    await weft(['run', '../elsewhere/loose.weft.json', '--input', '@../elsewhere/sum.json'], 'L1');
  },

  // WEFT_DB from another folder: pause, resume, cancel, retry, resolve, skip.
  async env(weft) {
    await weft(['run', '../ws/handoff.weft.json', '--input', '{"key": "D"}'], 'H3');
    await weft(['pause', '{H3}', '--reason', 'hold', '--json']);
    await weft(['pause', '{H3}']);
    await weft(['resume', '{H3}', '--by', 'ops', '--reason', 'go on']);
    await weft(['cancel', '{H3}', '--by', '']);
    await weft(['cancel', '{H3}', '--reason', 'not needed']);
    await weft(['cancel', '{H3}']);
    await weft(['run', '../ws/flaky.weft.json', '--json'], 'F1');
    await weft(['retry', '{F1}', 'pay', '--input', '@../ws/inputs/missing.json']);
    await weft(['retry', '{F1}', 'pay', '--reason', 'try again']);
    await weft(['resolve', '{F1}', 'pay', '--as', 'succeeded', '--evidence', '@../ws/inputs/bad-form.json']);
    await weft(['resolve', '{F1}', 'pay', '--as', 'succeeded', '--evidence', '@../ws/inputs/evidence.json', '--reason', 'checked', '--json']);
    await weft(['run', '../ws/flaky.weft.json'], 'F2');
    await weft(['skip', '{F2}', 'pay', '--output', '@../ws/inputs/output.json', '--reason', 'done by hand']);
    await weft(['resolve', '{F2}', 'pay', '--as', 'failed']);
    await weft(['retry', '{F2}', 'no_such_step']);
  },

  // --db relative to another folder: idempotent runs, revise, keep, fork, debug runs, resume.
  async flag(weft) {
    await weft(['run', '../ws/quote.weft.json', '--input', '{"customer": "ACME", "qty": 2}', '--key', 'q-1', '--json'], 'Q1');
    await weft(['run', '../ws/quote.weft.json', '--input', '{"customer": "ACME", "qty": 2}', '--key', 'q-1']);
    await weft(['run', '../ws/quote.weft.json', '--input', '{}', '--key', ' ']);
    await weft(['revise', '{Q1}', '--input', '@../ws/inputs/quote-3.json', '--dry-run']);
    await weft(['revise', '{Q1}', '--input', '@../ws/inputs/quote-3.json', '--dry-run', '--json']);
    await weft(['revise', '{Q1}', '--input', '@../ws/inputs/quote-3.json']);
    await weft(['keep', '{Q1}', 'price']);
    await weft(['keep', '{Q1}', 'send_quote', '--by', 'ops', '--reason', 'the customer has the first quote', '--json']);
    await weft(['revise', '{Q1}', '--input', '{"customer": "ACME", "qty": 4}', '--json']);
    await weft(['keep', '{Q1}', 'send_quote']);
    await weft(['fork', '{Q1}', '--from', 'send_quote', '--input', '@../ws/inputs/quote-3.json', '--json'], 'Q2');
    await weft(['fork', '{Q1}', '--from', 'nowhere']);
    await weft(['run', '../ws/debug.weft.json', '--pin', 'expensive=@../ws/inputs/pin.json', '--break', 'shape', '--json'], 'D1');
    await weft(['run', '../ws/debug.weft.json', '--break', 'nowhere']);
    await weft(['step', '{D1}']);
    await weft(['continue', '{D1}', '--json']);
    await weft(['continue', '{D1}']);
    await weft(['run', '../ws/handoff.weft.json', '--input', '{"key": "E"}'], 'H4');
    await weft(['resume', '--json']);
    await weft(['resume']);
    await weft(['resume', 'rnosuchrun']);
  },
};

/** One mode's part of the scenario, run against whatever owns the store. */
async function scenario(t: Tree, mode: Mode): Promise<{ transcript: Entry[]; ids: Map<string, string> }> {
  const ids = new Map<string, string>();
  const transcript: Entry[] = [];
  const cwd = mode === 'default' ? t.ws : t.elsewhere;
  const env = { ...t.env, ...(mode === 'env' ? { WEFT_DB: t.store } : {}) };
  await PARTS[mode](async (args, save) => {
    const real = args.map((a) => a.replace(/\{(\w+)\}/g, (_, name: string) => ids.get(name) ?? `<unknown ${name}>`));
    const r = await runWeft(mode === 'flag' ? [...real, '--db', '../ws/.weft/weft.db'] : real, cwd, { env, timeoutMs: 60_000 });
    if (save !== undefined) {
      const id = /"runId":"([^"]+)"/.exec(r.stdout)?.[1] ?? /^run (\S+):/m.exec(r.stdout)?.[1];
      if (id === undefined) throw new Error(`weft ${real.join(' ')} printed no run id (exit ${r.code})\n${r.stdout}${r.stderr}`);
      ids.set(save, id);
    }
    transcript.push({ args: `[${mode}] ${args.join(' ')}`, code: r.code, stdout: r.stdout, stderr: r.stderr });
    return r;
  });
  return { transcript, ids };
}

/** Run ids differ from pass to pass: each is named by the scenario's name for it. */
function normalised(transcript: Entry[], ids: Map<string, string>): Entry[] {
  const names = [...ids].map(([name, id]) => [id, `<${name}>`] as const);
  const swap = (text: string) => names.reduce((t, [id, name]) => t.split(id).join(name), text);
  return transcript.map((e) => ({ ...e, stdout: swap(e.stdout), stderr: swap(e.stderr) }));
}

/** Registers the parity test of one mode's part of the scenario in the calling test file. */
export function parityTest(mode: Mode): void {
  const t = newTree();
  let server: ServeChild | undefined;
  beforeAll(async () => {
    makeTree(t);
    expect((await runWeft(['trust', join(t.ws, 'sub')], t.ws, { env: t.env })).code).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(t.root, { recursive: true, force: true });
  });

  it(`every forwarded command (store chosen ${mode === 'default' ? 'by default' : mode === 'env' ? 'by WEFT_DB' : 'by --db'}) prints the same bytes and exit code with and without a server owning the store`, async () => {
    makeTree(t);
    const alone = await scenario(t, mode);
    expect(existsSync(join(t.elsewhere, '.weft'))).toBe(false);
    const aloneRuns = alone.ids.size;

    makeTree(t);
    // The server's own environment names no store: it was started with its workspace only.
    server = await startServe(['--workspace', t.ws], t.tree, { ...t.env, WEFT_DB: undefined, WEFT_LEASE_WAIT_MS: undefined });
    const served = await scenario(t, mode);
    const shown = (await server.api('GET', '/api/runs?limit=500')).body as { runs: { id: string }[] };
    const where = mode === 'default' ? ((await server.api('GET', `/api/runs/${served.ids.get('W1') ?? ''}`)).body as { steps: { id: string; attempts: { output?: unknown }[] }[] }) : undefined;
    await server.stop();
    server = undefined;

    expect(normalised(served.transcript, served.ids)).toEqual(normalised(alone.transcript, alone.ids));
    // WEFT_DB named the server's store: no second store appeared in the folder the command ran in.
    expect(existsSync(join(t.elsewhere, '.weft'))).toBe(false);
    // Every run is in the store the server shows (fork's new run and the idempotent one included).
    expect(new Set(shown.runs.map((r) => r.id))).toEqual(new Set(served.ids.values()));
    expect(served.ids.size).toBe(aloneRuns);
    // A workspace file sent as content ran from its own folder, as it does alone.
    if (where !== undefined) expect(where.steps.find((s) => s.id === 'cwd')?.attempts[0]?.output).toEqual({ cwd: join(t.ws, 'sub') });
  }, 600_000);
}
