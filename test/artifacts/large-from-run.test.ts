// A run whose outputs were kept by reference because they are large becomes a test that passes
// (docs/scenarios.md, "Large values"): a real run of examples/order-payment against the fake shop
// API on 127.0.0.1 with WEFT_ARTIFACT_THRESHOLD=10, so every step output is an artifact in the log.
// `weft test --from-run` writes each value itself into the scenario, read from the run's artifact
// store (the payment token, sensitive, stays the placeholder); `weft test` of that file passes.
// After the artifacts are gone (as after `weft gc`), from-run refuses, naming what is missing,
// and writes nothing.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { holdsArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import { SENSITIVE_PLACEHOLDER } from '../../shared/artifacts/sensitive-placeholder.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { orderPaymentWorkspace } from './order-payment-workspace.ts';
import { overrideEnv } from '../env-override.ts';

const ws = orderPaymentWorkspace('weft-large-from-run-');

/** `weft ARGS` on the test's store, every output over 10 bytes kept by reference. */
const weft = async (args: string[], code = 0): Promise<{ stdout: string; stderr: string }> => {
  const restore = overrideEnv({ WEFT_ARTIFACT_THRESHOLD: '10' });
  try {
    const r = await weftInProcess(args[0] === 'test' && args[1] !== '--from-run' ? args : [...args, '--db', join(ws.dir, 'weft.db')], ws.dir);
    expect(r.code, r.stderr).toBe(code);
    return r;
  } finally {
    restore();
  }
};

it('a scenario made from a run whose outputs are artifacts holds the values and passes; once they are gone, from-run refuses', async () => {
  const input = { apiBase: ws.apiUrl, orderId: 'L26', customerId: 'c-26', items: [{ sku: 'mug', quantity: 2 }], totalCents: 2400, currency: 'EUR' };
  const { runId } = JSON.parse((await weft(['run', 'order-payment.weft.json', '--input', JSON.stringify(input), '--json'], 3)).stdout) as { runId: string };
  await weft(['send', 'payment.received', '--key', 'L26', '--data', JSON.stringify({ paymentId: 'pay-26', amountCents: 2400, currency: 'EUR' }), '--json']);
  const events = (await weft(['events', runId, '--json'])).stdout;
  expect(events).toContain('"$artifact"');

  mkdirSync(join(ws.dir, 'order-payment.scenarios'));
  const file = join(ws.dir, 'order-payment.scenarios', 'from-run.json');
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
  rmSync(join(ws.dir, 'artifacts'), { recursive: true });
  const again = join(ws.dir, 'order-payment.scenarios', 'again.json');
  const refused = await weft(['test', '--from-run', runId, '-o', again], 2);
  expect(refused.stderr).toMatch(/artifact [0-9a-f]{64} is missing/);
  expect(refused.stderr).toContain('the value at steps.create_order[0].succeed is kept by reference');
  expect(existsSync(again)).toBe(false);
});
