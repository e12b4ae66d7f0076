// While `weft serve` owns a store, `weft artifact open` from a terminal goes through it (POST
// /api/runs/:id/artifact): the server drives the run and alone appends to its log, so opening a
// sensitive value while it runs records one artifact_opened and leaves the engine working (a CLI
// that appended to the log itself would leave the server's engine a log with a gap). A real `weft
// serve` child drives runs of examples/order-payment against the fake shop API, whose payment
// token is sensitive. The same openings then run with no server: the same bytes on stdout and
// stderr and the same exit codes, an opener the workspace policy refuses included.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OpenedArtifact } from '../../shared/api/artifact-open.ts';
import { REPO_ROOT, runWeft, type WeftResult } from './run-weft.ts';
import { startServe, type ServeChild } from './serve-child.ts';

const TOKEN = 'steps.create_order.attempts[0].output.body.paymentToken';

let api: { url: string; close: () => Promise<void> };
let root: string;
let workspace: string;
let env: Record<string, string>;
let server: ServeChild;

beforeAll(async () => {
  const module = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<typeof api> };
  api = await module.startFakeApi(0);
  root = mkdtempSync(join(tmpdir(), 'weft-artifact-forward-'));
  workspace = join(root, 'ws');
  mkdirSync(workspace);
  copyFileSync(join(REPO_ROOT, 'examples', 'order-payment.weft.json'), join(workspace, 'order-payment.weft.json'));
  writeFileSync(join(workspace, 'weft.policy.json'), JSON.stringify({ format: 'weft-policy/v1', sensitive: { openers: ['ana'] } }));
  // A lease wait of 0: a command that did not go through the server fails at once, not after a wait.
  env = { WEFT_CONFIG_DIR: join(root, 'config'), WEFT_DB: join(root, 'weft.db'), WEFT_LEASE_WAIT_MS: '0', WEFT_USER: 'tester' };
  server = await startServe(['--workspace', workspace], workspace, env);
});

afterAll(async () => {
  await server?.stop();
  await api?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const weft = (args: string[]): Promise<WeftResult> => runWeft(args, workspace, { env });

/** Starts an order (through the server while it runs); the run waits for its payment. */
async function order(key: string): Promise<string> {
  const input = { apiBase: api.url, orderId: key, customerId: `c-${key}`, items: [{ sku: 'mug', quantity: 2 }], totalCents: 2400, currency: 'EUR' };
  const started = await weft(['run', 'order-payment.weft.json', '--input', JSON.stringify(input), '--json']);
  expect(started.stderr).toBe('');
  const outcome = JSON.parse(started.stdout) as { runId: string; state: string };
  expect([started.code, outcome.state]).toEqual([3, 'waiting']);
  return outcome.runId;
}

/** Pays the order `key`: its run goes on to fulfilment and succeeds. */
async function pay(key: string, runId: string): Promise<void> {
  const paid = await weft(['send', 'payment.received', '--key', key, '--id', `pay-${key}`, '--data', JSON.stringify({ paymentId: `pay-${key}`, amountCents: 2400, currency: 'EUR' })]);
  expect(paid).toMatchObject({ code: 0, stderr: '' });
  const inspected = JSON.parse((await weft(['inspect', runId, '--json'])).stdout) as { run: { state: string } };
  expect(inspected.run.state).toBe('succeeded');
}

/** The openings on the run's record, by whom. */
async function openings(runId: string): Promise<string[]> {
  const page = JSON.parse((await weft(['events', runId, '--json'])).stdout) as { events: { type: string; data: { by: string; path: string } }[] };
  return page.events.filter((e) => e.type === 'artifact_opened').map((e) => `${e.data.by} ${e.data.path}`);
}

it('opens a sensitive value through the server that drives the run, on record once, and prints and refuses as with no server', async () => {
  const runId = await order('S1');

  // Opened while the server drives the run (it waits for the payment): the value, on record once.
  const served = await weft(['artifact', 'open', runId, TOKEN, '--by', 'ana', '--json']);
  expect({ code: served.code, stderr: served.stderr }).toEqual({ code: 0, stderr: '' });
  const opened = OpenedArtifact.parse(JSON.parse(served.stdout));
  expect(opened.value).toMatch(/^pt_[0-9a-f]{24}$/);
  expect(opened).toMatchObject({ runId, path: TOKEN, recorded: true, artifact: { sensitive: true } });
  const servedText = await weft(['artifact', 'open', runId.slice(0, 6), TOKEN, '--by', 'ana']);
  expect(servedText).toEqual({ code: 0, stdout: `${JSON.stringify(opened.value)}\n`, stderr: '' });
  expect(await openings(runId)).toEqual([`ana ${TOKEN}`, `ana ${TOKEN}`]);

  // Someone the policy's sensitive.openers does not list: refused by the server, nothing recorded.
  const refusedServed = await weft(['artifact', 'open', runId, TOKEN, '--by', 'mallory']);
  expect(refusedServed.code).toBe(2);
  expect(refusedServed.stdout).toBe('');
  expect(refusedServed.stderr).toMatch(/^weft artifact: policy rule sensitive\.openers of .*weft\.policy\.json .*"mallory" is not one of them.*nothing was opened or recorded\n$/);
  const missingServed = await weft(['artifact', 'open', 'r'.repeat(300), TOKEN, '--by', 'ana']);
  expect(missingServed.code).toBe(2);
  expect(await openings(runId)).toHaveLength(2);

  // The server went on working: the run finishes on its payment, and a later run finishes too.
  await pay('S1', runId);
  const later = await order('S2');
  await pay('S2', later);
  expect(server.stderr()).not.toMatch(/gap|internal error/i);

  // With no server, the CLI opens on the store itself: the same output, refusal and exit codes.
  await server.stop();
  const direct = await weft(['artifact', 'open', runId, TOKEN, '--by', 'ana', '--json']);
  expect(direct).toEqual(served);
  expect(await weft(['artifact', 'open', runId, TOKEN, '--by', 'mallory'])).toEqual(refusedServed);
  expect(await weft(['artifact', 'open', 'r'.repeat(300), TOKEN, '--by', 'ana'])).toEqual(missingServed);
  expect(await openings(runId)).toEqual([`ana ${TOKEN}`, `ana ${TOKEN}`, `ana ${TOKEN}`]);
});
