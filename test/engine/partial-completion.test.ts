// Partial completion on a real engine and store (docs/long-running.md#partial-completion): the
// reminder-batch example's own command (a real node child process) sends one POST per invoice to a
// real HTTP server on 127.0.0.1 that counts them, stops at the server's quota and reports partial;
// the attempt that continues (an automatic retry, or an operator's retry) gets WEFT_PARTIAL and
// sends only what remains. Each invoice is sent exactly once, whatever the number of attempts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { data, end, harness, types, until, wf, type Harness } from './harness.ts';

const SCRIPT = join(import.meta.dirname, '..', '..', 'examples', 'reminder-batch', 'send-reminders.mjs');

/** A mail API that takes `quota` POSTs, then answers 429 until `refill()`; counts sends per invoice. */
async function mailApi(quota: number): Promise<{ base: string; sends: Map<string, number>; refill(n: number): void; server: Server }> {
  const sends = new Map<string, number>();
  let left = quota;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (left <= 0) {
        res.writeHead(429).end();
        return;
      }
      left--;
      const { invoice } = JSON.parse(body) as { invoice: string };
      sends.set(invoice, (sends.get(invoice) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"queued":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, sends, refill: (n) => (left = n), server };
}

const invoices = ['INV-1', 'INV-2', 'INV-3', 'INV-4', 'INV-5'].map((id, k) => ({ id, email: `c${k}@example.com`, amount: 10 * (k + 1) }));

const flow = (maxAttempts: number) =>
  wf('batch', [
    {
      id: 'send',
      kind: 'command',
      config: { argv: [process.execPath, SCRIPT] },
      effect: 'external',
      idempotencyKey: "'reminders-' & run.id",
      onExhausted: 'escalate',
      retry: { maxAttempts, initialIntervalMs: 10 },
    },
    end(),
  ], [{ id: 'a', from: 'send', to: 'done' }]);

let h: Harness | undefined;
/** The run's state as its log says so far (undefined before its first commit). */
const stateOf = (runId: string): string | undefined => {
  const changes = (h?.events(runId) ?? []).filter((e) => e.type === 'run_state_changed');
  const last = changes[changes.length - 1];
  return last?.type === 'run_state_changed' ? last.data.state : undefined;
};
let api: Awaited<ReturnType<typeof mailApi>> | undefined;
afterEach(() => {
  h?.close();
  api?.server.close();
  h = undefined;
  api = undefined;
});

describe('partial completion with a real command', () => {
  it('stops at the quota, reports partial, and the automatic retry sends only what remains', async () => {
    api = await mailApi(2);
    const server = api;
    h = harness();
    const { runId } = h.start(flow(3), { apiBase: server.base, invoices });
    // The first attempt sends two; refill once its partial end is recorded, so the retry finishes.
    await until(() => types(h?.events(runId) ?? []).includes('attempt_partial'), 'the partial attempt');
    server.refill(100);
    await until(() => stateOf(runId) === 'succeeded', 'the run to succeed');

    const events = h.events(runId);
    expect(types(events, 'send').filter((t) => t.startsWith('attempt_') && t !== 'attempt_started')).toEqual(['attempt_partial', 'attempt_succeeded']);
    // An external step's partial attempt is evidence of what happened, never an unknown outcome.
    expect(types(events)).not.toContain('attempt_unknown');
    expect(data(events, 'attempt_partial', 'send')).toEqual([{ output: { sent: ['INV-1', 'INV-2'] }, remaining: { invoices: invoices.slice(2) } }]);
    const retry = events.find((e) => e.type === 'retry_scheduled' && e.step === 'send');
    expect(retry?.reason).toMatch(/^partial: attempt 2 of 3/);
    expect(data(events, 'attempt_succeeded', 'send')[0]?.output).toEqual({ sent: invoices.map((i) => i.id) });
    // Each invoice was sent exactly once over both attempts.
    expect(Object.fromEntries(server.sends)).toEqual(Object.fromEntries(invoices.map((i) => [i.id, 1])));
    const model = h.model(runId);
    expect(model.unknowns).toEqual([]);
    const attempts = restartRecord(model).steps.find((s) => s.id === 'send')?.attempts ?? [];
    expect(attempts.map((a) => a.state)).toEqual(['partial', 'succeeded']);
    expect(attempts[0]?.remaining).toEqual({ invoices: invoices.slice(2) });
  });

  it('with its attempts used up the step settles partial and waits for a person; weft retry continues from the part done', async () => {
    api = await mailApi(2);
    const server = api;
    h = harness();
    const { runId } = h.start(flow(1), { apiBase: server.base, invoices });
    await until(() => stateOf(runId) === 'needs_attention', 'the run to need attention');
    let model = h.model(runId);
    const send = model.steps.get('send');
    expect(send?.outcome).toBe('partial');
    expect(send?.state).toBe('failed');
    const view = restartRecord(model).steps.find((s) => s.id === 'send');
    expect(view?.next).toMatch(/^needs a person: attempt send\/1\.1 finished part of the work \(remaining: \{"invoices":\[/);
    expect(view?.next).toMatch(/a retry continues from its output$/);
    expect(h.events(runId).find((e) => e.type === 'step_escalated')?.reason).toMatch(/finished part of its work/);

    // The engine restarts before the operator acts: the part done comes back from the log.
    h.restart();
    server.refill(100);
    await h.engine.retryStep(runId, 'send', 'ops', 'the quota is back');
    await until(() => stateOf(runId) === 'succeeded', 'the run to succeed after the retry');
    model = h.model(runId);
    expect(model.steps.get('send')?.output).toEqual({ sent: invoices.map((i) => i.id) });
    expect(Object.fromEntries(server.sends)).toEqual(Object.fromEntries(invoices.map((i) => [i.id, 1])));
  });

  it('an attempt with nothing to continue gets no WEFT_PARTIAL, even if the engine has one in its environment', async () => {
    const restore = overrideEnv({ WEFT_PARTIAL: '{"attempt":"leaked/1.1","output":null}' });
    h = harness();
    const probe = wf('probe', [{ id: 'env', kind: 'command', config: { argv: [process.execPath, '-e', 'process.stdout.write(JSON.stringify({ partial: process.env.WEFT_PARTIAL ?? null }))'] } }, end()], [{ id: 'a', from: 'env', to: 'done' }]);
    const { runId } = h.start(probe);
    try {
      await until(() => stateOf(runId) === 'succeeded', 'the run to succeed');
    } finally {
      restore();
    }
    expect(h.model(runId).steps.get('env')?.output).toEqual({ partial: null });
  });

  it('a script returns a $partial report, and its retry gets context.partial and continues', async () => {
    h = harness();
    writeFileSync(join(h.dir, 'half.mjs'), `export default (input, ctx) => ctx.partial === undefined
  ? { $partial: { output: { done: [1, 2] }, remaining: { from: 2 } } }
  : { done: [...ctx.partial.output.done, 3, 4], from: ctx.partial.remaining.from, continued: ctx.partial.attempt };\n`);
    const flow = wf('script-half', [{ id: 'half', kind: 'script', config: { module: 'half.mjs' }, retry: { maxAttempts: 2, initialIntervalMs: 10 } }, end()], [{ id: 'a', from: 'half', to: 'done' }]);
    const { runId } = h.start(flow);
    await until(() => stateOf(runId) === 'succeeded', 'the run to succeed');
    expect(data(h.events(runId), 'attempt_partial', 'half')).toEqual([{ output: { done: [1, 2] }, remaining: { from: 2 } }]);
    expect(h.model(runId).steps.get('half')?.output).toEqual({ done: [1, 2, 3, 4], from: 2, continued: 'half/1.1' });
  });

  it('a $partial report that does not read fails the attempt invalid_partial, naming what is wrong', async () => {
    h = harness();
    const bad = wf('bad', [{ id: 'half', kind: 'command', config: { argv: [process.execPath, '-e', 'process.stdout.write(JSON.stringify({ $partial: { done: 3 } }))'] }, retry: { maxAttempts: 3 } }, end()], [{ id: 'a', from: 'half', to: 'done' }]);
    const { runId } = h.start(bad);
    await until(() => stateOf(runId) === 'failed', 'the run to fail');
    const failed = data(h.events(runId), 'attempt_failed', 'half');
    expect(failed).toHaveLength(1); // not retryable: the same program would report the same shape
    expect(failed[0]?.error.code).toBe('invalid_partial');
    expect(failed[0]?.error.message).toContain('reported $partial with "done", which it does not take (only "output" and "remaining")');
  });
});
