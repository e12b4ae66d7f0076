// POST /api/runs/:id/actions serves every operator action through the EngineService, keep,
// revise (with dryRun answering a RevisePlan that writes nothing) and fork included, on the real
// server over a real store, with a command step of a trusted workspace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { ReviseOutcome, RevisePlan } from '../../shared/api/input-commands.ts';
import { RunOutcome } from '../../shared/api/run-outcome.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { setTrust } from '../../engine/service/workspace-trust.ts';
import { storeDigest as digestOf } from '../store-digest.ts';
import { waitUntil } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
let root = '';
let serving: Serving;
let runId = '';

const payFlow = {
  format: 'weft/v1',
  id: 'pay',
  version: 1,
  name: 'Pay',
  steps: [
    { id: 'charge', kind: 'command', effect: 'external', input: 'input.amount', config: { argv: [process.execPath, '-e', 'process.stdout.write(JSON.stringify({ charged: true }))'] } },
    { id: 'done', kind: 'end' },
    { id: 'lost', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'e1', from: 'charge', to: 'done' },
    { id: 'e3', from: 'charge', to: 'lost', on: 'unknown' },
  ],
};

/** Polls the server until `check` holds (state, not time: the bound only stops a broken test). */
const until = (check: () => Promise<boolean>, what: string): Promise<void> => waitUntil(check, what);

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${serving.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

interface Detail {
  run: { state: string; inputRevision: number };
  steps: { id: string; state: string }[];
}

const detail = async (id: string): Promise<Detail> => (await call('GET', `/api/runs/${id}`)).body as Detail;
const stepState = async (id: string, step: string): Promise<string | undefined> => (await detail(id)).steps.find((s) => s.id === step)?.state;

const storeDigest = (): string => digestOf(join(root, 'weft.db'));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-run-actions-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'pay.weft.json'), JSON.stringify(payFlow));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'ana' };
  setTrust(workspace, true, env);
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env });
  const started = await call('POST', '/api/runs', { workflow: 'pay', input: { amount: 5 } });
  expect(started.body).toMatchObject({ runId: expect.any(String) });
  expect(started.status).toBe(201);
  runId = (started.body as { runId: string }).runId;
  await until(async () => (await detail(runId)).run.state === 'succeeded', 'the run succeeds');
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

it('revise with dryRun answers the plan and writes nothing', async () => {
  const before = storeDigest();
  const r = await call('POST', `/api/runs/${runId}/actions`, { action: 'revise', input: { amount: 7 }, dryRun: true });
  expect(r.status).toBe(200);
  const plan = RevisePlan.parse(r.body);
  expect(plan).toMatchObject({ runId, dryRun: true, inputRevision: 2, state: 'succeeded' });
  expect(plan.plan.find((p) => p.stepId === 'charge')).toMatchObject({ action: 'ask' });
  expect(storeDigest()).toBe(before);
});

it('keep is refused on a step no revision holds (409), then revise holds the charge and keep settles it', async () => {
  const refused = await call('POST', `/api/runs/${runId}/actions`, { action: 'keep', step: 'charge' });
  expect(refused.status).toBe(409);
  expect(ApiErrorBody.parse(refused.body).error.message).toMatch(/cannot keep run .*: it is succeeded/);

  const revised = await call('POST', `/api/runs/${runId}/actions`, { action: 'revise', input: { amount: 7 } });
  expect(revised.status).toBe(200);
  expect(ReviseOutcome.parse(revised.body)).toMatchObject({ runId, inputRevision: 2 });
  await until(async () => (await stepState(runId, 'charge')) === 'waiting', 'the revision holds the charge for a decision');

  const kept = await call('POST', `/api/runs/${runId}/actions`, { action: 'keep', step: 'charge', reason: 'charged already' });
  expect(kept.status).toBe(200);
  expect(RunOutcome.parse(kept.body).runId).toBe(runId);
  await until(async () => (await detail(runId)).run.state === 'succeeded', 'the charge keeps its evidence and the run ends');
  expect(await stepState(runId, 'charge')).toBe('succeeded');
  const events = (await call('GET', `/api/runs/${runId}/events`)).body as { events: { type: string; step: string | null; reason: string | null }[] };
  const keep = events.events.find((e) => e.type === 'operator_action' && e.step === 'charge');
  expect(keep?.reason).toBe('kept by ana: charged already');
  expect(events.events.filter((e) => e.type === 'attempt_started' && e.step === 'charge')).toHaveLength(1);
});

it('fork starts a new run (201) that reuses the evidence before the step', async () => {
  // The charge's kept evidence covers the input it ran with (amount 5), so a fork with that input reuses it.
  const r = await call('POST', `/api/runs/${runId}/actions`, { action: 'fork', from: 'done', input: { amount: 5 } });
  expect(r.status).toBe(201);
  const fork = RunOutcome.parse(r.body);
  expect(fork.runId).not.toBe(runId);
  await until(async () => (await detail(fork.runId)).run.state === 'succeeded', 'the fork ends');
  expect(await stepState(fork.runId, 'charge')).toBe('succeeded');
  const events = (await call('GET', `/api/runs/${fork.runId}/events`)).body as { events: { type: string; step: string | null }[] };
  expect(events.events.filter((e) => e.type === 'attempt_started' && e.step === 'charge')).toHaveLength(0);
  expect(events.events.some((e) => e.type === 'evidence_imported' && e.step === 'charge')).toBe(true);
});

it('a fork from a step the run does not have is refused with the steps it has, and nothing is written', async () => {
  const before = storeDigest();
  const r = await call('POST', `/api/runs/${runId}/actions`, { action: 'fork', from: 'nope' });
  expect(r.status).toBe(400);
  expect(ApiErrorBody.parse(r.body).error.message).toMatch(/has no step "nope"; its steps are charge, done, lost/);
  expect(storeDigest()).toBe(before);
});
