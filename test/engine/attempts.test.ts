// Attempts, retries and outcomes on the real engine with real command processes.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clockAfter } from './clock-after.ts';
import { data, end, harness, types, wf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

/** A command that fails (exit 1) until it has run `n` times, counting in a file. */
const failTimes = (n: number, file = 'count') => ['sh', '-c', `c=$(cat ${file} 2>/dev/null || echo 0); c=$((c+1)); echo $c > ${file}; if [ $c -le ${n} ]; then echo "try $c failed" >&2; exit 1; fi; echo "{\\"tries\\": $c}"`];
const ok = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'transform', config: { expression: '"ok"' }, ...extra });

describe('retries', () => {
  it('retries a failing attempt with backoff until it succeeds', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'flaky', kind: 'command', config: { argv: failTimes(2) }, retry: { maxAttempts: 3, initialIntervalMs: 50, backoffCoefficient: 2 } }, end(), end('failed_end', 'failed')],
      [{ id: 'e1', from: 'flaky', to: 'done' }, { id: 'e2', from: 'flaky', to: 'failed_end', on: 'failed' }],
    ));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(data(events, 'retry_scheduled', 'flaky').map((d) => d.delayMs)).toEqual([50, 100]);
    expect(types(events, 'flaky').filter((t) => t.startsWith('attempt_'))).toEqual([
      'attempt_started', 'attempt_failed', 'attempt_started', 'attempt_failed', 'attempt_started', 'attempt_succeeded',
    ]);
    expect(data(events, 'attempt_failed', 'flaky')[0]?.error.message).toContain('try 1 failed');
    expect(data(events, 'attempt_succeeded', 'flaky')[0]?.output).toEqual({ tries: 3 });
  });

  it('does not retry a nonRetryable error code, and routes the failure', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'lookup', kind: 'command', config: { argv: ['sh', '-c', 'exit 3'], exitCodes: { '3': { outcome: 'failed', code: 'not_found' } } }, retry: { maxAttempts: 5, initialIntervalMs: 10, nonRetryable: ['not_found'] } }, end(), end('missing', 'failed')],
      [{ id: 'e1', from: 'lookup', to: 'done' }, { id: 'e2', from: 'lookup', to: 'missing', on: 'failed' }],
    ));
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect(data(events, 'attempt_started', 'lookup')).toHaveLength(1);
    expect(events.find((e) => e.type === 'step_settled' && e.step === 'lookup')?.reason).toBe('not_found is listed in nonRetryable');
    expect(events.find((e) => e.type === 'run_state_changed')?.reason).toBe('reached end step "missing" (status failed)');
  });

  it('merges retry variants into the config of attempts 2, 3, ...', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{
        id: 'model',
        kind: 'command',
        config: { argv: ['sh', '-c', 'exit 1'], env: { MODEL: 'large' } },
        retry: { maxAttempts: 3, initialIntervalMs: 1, variants: [{ env: { MODEL: 'small' } }, { argv: ['sh', '-c', 'echo "{\\"model\\": \\"$MODEL\\"}"'] }] },
      }, end(), end('failed_end', 'failed')],
      [{ id: 'e1', from: 'model', to: 'done' }, { id: 'e2', from: 'model', to: 'failed_end', on: 'failed' }],
    ));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(data(events, 'attempt_started', 'model').map((d) => d.variant)).toEqual([null, 0, 1]);
    // Variant 1 replaces argv and keeps env from the step's config (merged key by key).
    expect(data(events, 'attempt_succeeded', 'model')[0]?.output).toEqual({ model: 'large' });
  });

  it('escalates when attempts are exhausted and onExhausted is escalate, keeping what follows blocked', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'check', kind: 'command', config: { argv: ['sh', '-c', 'exit 1'] }, retry: { maxAttempts: 2, initialIntervalMs: 1 }, onExhausted: 'escalate' }, ok('after'), end()],
      [{ id: 'e1', from: 'check', to: 'after' }, { id: 'e2', from: 'after', to: 'done' }],
    ));
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    const m = h.engine.model(runId);
    expect(m?.steps.get('check')?.escalated).toBe(true);
    expect(m?.steps.get('after')?.state).toBe('blocked');
  });
});

describe('output contracts', () => {
  it('fails an output that does not match the output schema (invalid_output) and keeps it as evidence', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'shape', kind: 'transform', config: { expression: '{"total": "twelve"}' }, output: { type: 'object', properties: { total: { type: 'number' } } } }, end(), end('bad', 'failed')],
      [{ id: 'e1', from: 'shape', to: 'done' }, { id: 'e2', from: 'shape', to: 'bad', on: 'failed' }],
    ));
    expect(await h.engine.settled(runId)).toBe('failed');
    const failed = data(h.events(runId), 'attempt_failed', 'shape')[0];
    expect(failed?.error.code).toBe('invalid_output');
    expect(failed?.error.message).toContain('/total must be number');
    expect(failed?.output).toEqual({ total: 'twelve' });
    expect(failed?.evidenceId).toBe('shape/1.1');
  });

  it('records work that misses its acceptance rule as evidence and fails the step (acceptance_not_met)', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'score', kind: 'transform', config: { expression: '{"score": 0.4}' }, accept: 'output.score >= 0.8' }, ok('publish'), end(), end('bad', 'failed')],
      [{ id: 'e1', from: 'score', to: 'publish' }, { id: 'e2', from: 'publish', to: 'done' }, { id: 'e3', from: 'score', to: 'bad', on: 'failed' }],
    ));
    expect(await h.engine.settled(runId)).toBe('failed');
    const events = h.events(runId);
    expect(data(events, 'attempt_failed', 'score')[0]).toMatchObject({ error: { code: 'acceptance_not_met' }, output: { score: 0.4 } });
    expect(types(events, 'publish')).toEqual(['step_settled']);
    expect(data(events, 'step_settled', 'publish')[0]?.outcome).toBe('skipped');
  });
});

describe('external effects', () => {
  it('never retries an external attempt that timed out, and passes the idempotency key once per activation', async () => {
    // The reply is lost after the charge was made: its timeout waits for the key to be written.
    const keys = join(mkdtempSync(join(tmpdir(), 'weft-engine-')), 'keys');
    h = harness(dirname(keys), clockAfter(() => existsSync(keys) && readFileSync(keys, 'utf8').endsWith('\n'), 'the charge to write its key'));
    const { runId } = h.start(wf('attempts',
      [
        { id: 'charge', kind: 'command', effect: 'external', timeoutMs: 300, idempotencyKey: '"order-" & input.orderId', retry: { maxAttempts: 3, initialIntervalMs: 1 },
          config: { argv: ['sh', '-c', 'echo "$WEFT_IDEMPOTENCY_KEY" >> keys; sleep 20'] } },
        { id: 'check', kind: 'command', config: { argv: ['sh', '-c', 'echo "{\\"seen\\": \\"$(cat keys)\\"}"'] } },
        end(),
        end('failed_end', 'failed'),
      ],
      [{ id: 'e1', from: 'charge', to: 'check', on: ['succeeded', 'unknown'] }, { id: 'e2', from: 'check', to: 'done' }, { id: 'e3', from: 'charge', to: 'failed_end', on: 'failed' }, { id: 'e4', from: 'check', to: 'failed_end', on: 'failed' }],
      { input: { type: 'object', properties: { orderId: { type: 'string' } } } },
    ), { orderId: 'A17' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const events = h.events(runId);
    expect(types(events, 'charge')).toEqual(['step_activated', 'attempt_started', 'attempt_unknown', 'step_settled']);
    expect(data(events, 'step_settled', 'charge')[0]?.outcome).toBe('unknown');
    expect(readFileSync(join(h.dir, 'keys'), 'utf8')).toBe('order-A17\n');
    expect(data(events, 'attempt_succeeded', 'check')[0]?.output).toEqual({ seen: 'order-A17' });
  });

  it('leaves an unknown outcome with no edge for a person (needs_attention)', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts',
      [{ id: 'send', kind: 'command', effect: 'external', timeoutMs: 200, onExhausted: 'escalate', config: { argv: ['sleep', '20'] } }, end()],
      [{ id: 'e1', from: 'send', to: 'done' }],
    ));
    expect(await h.engine.settled(runId)).toBe('needs_attention');
    expect(h.engine.model(runId)?.steps.get('done')?.state).toBe('blocked');
  });

  it('fails the run when a failure nothing handles happens', async () => {
    h = harness();
    const { runId } = h.start(wf('attempts', [{ id: 'boom', kind: 'command', config: { argv: ['sh', '-c', 'exit 9'] } }, end()], [{ id: 'e1', from: 'boom', to: 'done' }]));
    expect(await h.engine.settled(runId)).toBe('failed');
    const last = h.events(runId).at(-1);
    expect(last?.reason).toMatch(/^step "boom" failed \(1 of 1 attempts used\) and no edge or escalation handles it$/);
  });
});
