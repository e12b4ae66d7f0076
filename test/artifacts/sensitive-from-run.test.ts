// A run with a sensitive value becomes a test that passes and holds no secret (docs/scenarios.md,
// "Sensitive values"): a real run of examples/order-payment against the fake shop API on
// 127.0.0.1, whose create_order answer carries a payment token its output schema marks
// x-weft-sensitive. `weft test --from-run` writes the scenario with the placeholder in the token's
// place; `weft test` of that file passes; and no byte of the file is the token or its sha256.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SENSITIVE_PLACEHOLDER } from '../../shared/artifacts/sensitive-placeholder.ts';
import { OpenedArtifact } from '../../shared/api/artifact-open.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { orderPaymentWorkspace } from './order-payment-workspace.ts';

const ws = orderPaymentWorkspace('weft-sensitive-from-run-');

/** `weft ARGS` on the test's store (`weft test FILE` runs in virtual time and takes no store). */
const weft = async (args: string[], code = 0): Promise<string> => {
  const r = await weftInProcess(args[0] === 'test' && args[1] !== '--from-run' ? args : [...args, '--db', join(ws.dir, 'weft.db')], ws.dir);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code, stderr: "" });
  return r.stdout;
};

it('a scenario made from a run of order-payment passes, and holds neither the payment token nor its hash', async () => {
  const input = { apiBase: ws.apiUrl, orderId: 'S26', customerId: 'c-26', items: [{ sku: 'mug', quantity: 2 }], totalCents: 2400, currency: 'EUR' };
  const { runId, state } = JSON.parse(await weft(['run', 'order-payment.weft.json', '--input', JSON.stringify(input), '--json'], 3)) as { runId: string; state: string };
  expect(state).toBe('waiting');
  await weft(['send', 'payment.received', '--key', 'S26', '--data', JSON.stringify({ paymentId: 'pay-26', amountCents: 2400, currency: 'EUR' }), '--json']);
  const inspected = JSON.parse(await weft(['inspect', runId, '--json'])) as { run: { state: string } };
  expect(inspected.run.state).toBe('succeeded');

  // The token the shop gave: opened on record, as an operator would.
  const opened = OpenedArtifact.parse(JSON.parse(await weft(['artifact', 'open', runId, 'steps.create_order.attempts[0].output.body.paymentToken', '--by', 'test', '--json'])));
  expect(opened.value).toMatch(/^pt_[0-9a-f]{24}$/);
  const token = opened.value as string;

  mkdirSync(join(ws.dir, 'order-payment.scenarios'));
  const file = join(ws.dir, 'order-payment.scenarios', 'from-run.json');
  await weft(['test', '--from-run', runId, '-o', file]);
  const bytes = readFileSync(file);
  expect(bytes.includes(token)).toBe(false);
  expect(bytes.includes(opened.artifact.sha256)).toBe(false);
  const scenario = (JSON.parse(bytes.toString('utf8')) as { scenarios: { steps: Record<string, { succeed?: { body?: Record<string, unknown> } }[]>; expect: { steps: Record<string, { output?: { body?: Record<string, unknown> } }> } }[] }).scenarios[0];
  expect(scenario?.steps['create_order']?.[0]?.succeed?.body?.['paymentToken']).toBe(SENSITIVE_PLACEHOLDER);
  expect(scenario?.expect.steps['create_order']?.output?.body?.['paymentToken']).toBe(SENSITIVE_PLACEHOLDER);

  const report = JSON.parse(await weft(['test', 'order-payment.weft.json', '--json'])) as { workflows: { scenarios: { passed: boolean; assertions: { ok: boolean; what: string }[] }[] }[] };
  const ran = report.workflows[0]?.scenarios[0];
  expect(ran?.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(ran?.assertions.map((a) => a.what)).toContain('output of "create_order"');
  expect(ran?.passed).toBe(true);
});
