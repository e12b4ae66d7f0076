// A run whose outputs were kept by reference because they are large becomes a test that passes
// (docs/scenarios.md, "Large values"): a real run of examples/order-payment against the fake shop
// API on 127.0.0.1 with WEFT_ARTIFACT_THRESHOLD=10, so every step output is an artifact in the log.
// `weft test --from-run` writes each value itself into the scenario, read from the run's artifact
// store (the payment token, sensitive, stays the placeholder); `weft test` of that file passes.
// After the artifacts are gone (as after `weft gc`), from-run refuses, naming what is missing,
// and writes nothing.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holdsArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import { SENSITIVE_PLACEHOLDER } from '../../shared/artifacts/sensitive-placeholder.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { REPO_ROOT } from '../cli/run-weft.ts';
import { overrideEnv } from '../env-override.ts';

interface FakeApi {
  url: string;
  close: () => Promise<void>;
}

let api: FakeApi;
let dir: string;

beforeAll(async () => {
  const module = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<FakeApi> };
  api = await module.startFakeApi(0);
  dir = mkdtempSync(join(tmpdir(), 'weft-large-from-run-'));
  copyFileSync(join(REPO_ROOT, 'examples', 'order-payment.weft.json'), join(dir, 'order-payment.weft.json'));
});

afterAll(async () => {
  await api?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** `weft ARGS` on the test's store, every output over 10 bytes kept by reference. */
const weft = async (args: string[], code = 0): Promise<{ stdout: string; stderr: string }> => {
  const restore = overrideEnv({ WEFT_ARTIFACT_THRESHOLD: '10' });
  try {
    const r = await weftInProcess(args[0] === 'test' && args[1] !== '--from-run' ? args : [...args, '--db', join(dir, 'weft.db')], dir);
    expect(r.code, r.stderr).toBe(code);
    return r;
  } finally {
    restore();
  }
};

it('a scenario made from a run whose outputs are artifacts holds the values and passes; once they are gone, from-run refuses', async () => {
  const input = { apiBase: api.url, orderId: 'L26', customerId: 'c-26', items: [{ sku: 'mug', quantity: 2 }], totalCents: 2400, currency: 'EUR' };
  const { runId } = JSON.parse((await weft(['run', 'order-payment.weft.json', '--input', JSON.stringify(input), '--json'], 3)).stdout) as { runId: string };
  await weft(['send', 'payment.received', '--key', 'L26', '--data', JSON.stringify({ paymentId: 'pay-26', amountCents: 2400, currency: 'EUR' }), '--json']);
  const events = (await weft(['events', runId, '--json'])).stdout;
  expect(events).toContain('"$artifact"');

  mkdirSync(join(dir, 'order-payment.scenarios'));
  const file = join(dir, 'order-payment.scenarios', 'from-run.json');
  await weft(['test', '--from-run', runId, '-o', file]);
  const scenario = (JSON.parse(readFileSync(file, 'utf8')) as { scenarios: { steps: Record<string, { succeed?: { body?: Record<string, unknown> } }[]>; expect: unknown }[] }).scenarios[0];
  expect(holdsArtifactRef(scenario)).toBe(false);
  expect(scenario?.steps['create_order']?.[0]?.succeed?.body?.['orderId']).toBe('L26');
  expect(scenario?.steps['create_order']?.[0]?.succeed?.body?.['paymentToken']).toBe(SENSITIVE_PLACEHOLDER);

  const report = JSON.parse((await weft(['test', 'order-payment.weft.json', '--json'])).stdout) as { workflows: { scenarios: { passed: boolean; assertions: { ok: boolean; what: string }[] }[] }[] };
  const ran = report.workflows[0]?.scenarios[0];
  expect(ran?.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(ran?.passed).toBe(true);

  // The artifacts gone, as `weft gc` leaves a store whose runs were deleted: refused, nothing written.
  rmSync(join(dir, 'artifacts'), { recursive: true });
  const again = join(dir, 'order-payment.scenarios', 'again.json');
  const refused = await weft(['test', '--from-run', runId, '-o', again], 2);
  expect(refused.stderr).toMatch(/artifact [0-9a-f]{64} is missing/);
  expect(refused.stderr).toContain('the value at steps.create_order[0].succeed is kept by reference');
  expect(existsSync(again)).toBe(false);
});
