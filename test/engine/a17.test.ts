// The A17 example of reference/dependencies-state-recovery.txt, end to end on the real engine:
// the write's reply is lost (its command hangs past the timeout), so write is `unknown`; verify
// becomes ready for investigation and runs; notify stays blocked until verify accepts; revising
// the input from I3 to I4 makes validation run again while the earlier write attempt stays on
// record exactly as it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { formatRecord } from '../../engine/cli/commands/inspect-command.ts';
import { harness, types, until, type Harness } from './harness.ts';

const A17 = {
  format: 'weft/v1',
  id: 'a17-record-update',
  version: 1,
  name: 'A17 record update',
  input: {
    type: 'object',
    required: ['recordId', 'status', 'revision'],
    properties: { recordId: { type: 'string' }, status: { type: 'string' }, revision: { type: 'string' } },
  },
  steps: [
    {
      id: 'validate',
      kind: 'transform',
      config: { expression: '{"recordId": input.recordId, "status": input.status, "revision": input.revision, "rule": "C2"}' },
      output: { type: 'object', properties: { recordId: { type: 'string' }, status: { type: 'string' }, revision: { type: 'string' }, rule: { type: 'string' } } },
      accept: 'output.status in ["active", "closed"]',
    },
    {
      id: 'write',
      kind: 'command',
      effect: 'external',
      timeoutMs: 400,
      input: 'steps.validate.output',
      idempotencyKey: 'input.recordId & "-" & input.revision',
      // The remote system applies the write but the reply never comes back.
      config: { argv: ['sh', '-c', 'sleep 30'] },
    },
    {
      id: 'verify',
      kind: 'command',
      input: '{"recordId": input.recordId, "revision": input.revision}',
      config: { argv: ['sh', '-c', 'cat remote-A17.json 2>/dev/null || echo null'] },
      accept: 'output.recordId = input.recordId and output.revision = input.revision',
      retry: { maxAttempts: 5, initialIntervalMs: 300, backoffCoefficient: 1 },
      onExhausted: 'escalate',
    },
    { id: 'notify', kind: 'transform', config: { expression: '{"intent": "notify", "recipient": "R2", "record": input.recordId}' } },
    { id: 'done', kind: 'end' },
    { id: 'rejected', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'validated', from: 'validate', to: 'write' },
    { id: 'invalid', from: 'validate', to: 'rejected', on: 'failed' },
    { id: 'written', from: 'write', to: 'verify', on: ['succeeded', 'unknown'] },
    { id: 'write_refused', from: 'write', to: 'rejected', on: 'failed' },
    { id: 'verified', from: 'verify', to: 'notify' },
    { id: 'noted', from: 'notify', to: 'done' },
  ],
};

let h: Harness | undefined;
afterEach(() => h?.close());

describe('A17: a write whose reply is lost', () => {
  it('keeps write unknown, investigates with verify, blocks notify until verify accepts, and revises per prerequisite', async () => {
    h = harness();
    const { runId } = h.start(A17, { recordId: 'A17', status: 'active', revision: 'I3' });
    const model = () => h?.engine.model(runId) ?? (() => { throw new Error('run not loaded'); })();
    const step = (id: string) => model().steps.get(id);

    // The write hangs past its timeout: unknown, never retried; verify is made ready by it.
    await until(() => step('verify')?.attempts.some((a) => a.state === 'failed') === true, 'the first verify attempt to fail acceptance');
    const record = restartRecord(model());
    const byId = Object.fromEntries(record.steps.map((s) => [s.id, s]));
    expect(byId['validate']?.state).toBe('succeeded');
    expect(byId['validate']?.evidence?.covers).toMatchObject({ definitionVersion: 1, inputRevision: 1 });
    expect(byId['write']?.state).toBe('unknown');
    expect(byId['write']?.attempts).toHaveLength(1);
    expect(byId['write']?.next).toMatch(/^investigate: attempt write\/1\.1 outcome unknown/);
    expect(byId['verify']?.attempts[0]?.error?.code).toBe('acceptance_not_met');
    expect(byId['notify']?.state).toBe('blocked');
    expect(byId['notify']?.next).toBe('blocked: awaits accepted result of verify (now retry_wait)');
    const text = formatRecord(record);
    expect(text).toContain('write     unknown; attempt write/1.1 unknown');
    expect(text).toContain('notify    blocked');

    const events = h.events(runId);
    const writeEvents = types(events, 'write');
    expect(writeEvents).toEqual(['step_activated', 'attempt_started', 'attempt_unknown', 'step_settled']);
    const verifyActivated = events.find((e) => e.type === 'step_activated' && e.step === 'verify');
    expect(verifyActivated?.reason).toBe('edge "written" taken');
    const writeStart = events.find((e) => e.type === 'attempt_started' && e.step === 'write');
    expect(writeStart?.data).toMatchObject({ effect: 'external', idempotencyKey: 'A17-I3' });
    const writeAttemptBefore = structuredClone(model().steps.get('write')?.attempts[0]);

    // The runbook confirms the write took effect: the remote now shows revision I3.
    writeFileSync(join(h.dir, 'remote-A17.json'), JSON.stringify({ recordId: 'A17', revision: 'I3' }));
    expect(await h.engine.settled(runId)).toBe('succeeded');
    const after = h.events(runId);
    expect(types(after, 'notify')).toContain('attempt_succeeded');
    // notify ran only after verify's evidence was accepted.
    const verifyOk = after.findIndex((e) => e.type === 'attempt_succeeded' && e.step === 'verify');
    const notifyStart = after.findIndex((e) => e.type === 'step_activated' && e.step === 'notify');
    expect(verifyOk).toBeGreaterThan(0);
    expect(notifyStart).toBeGreaterThan(verifyOk);

    // Revise I3 → I4: validation runs again; the earlier write attempt stays as it was.
    h.engine.revise(runId, { recordId: 'A17', status: 'active', revision: 'I4' });
    await until(() => (h?.engine.model(runId)?.steps.get('write')?.attempts.length ?? 0) >= 2, 'the new write attempt');
    const revised = h.engine.model(runId);
    expect(revised?.inputRevision).toBe(2);
    const validateAttempts = revised?.steps.get('validate')?.attempts ?? [];
    expect(validateAttempts).toHaveLength(2);
    expect(validateAttempts[1]?.inputHash).not.toBe(validateAttempts[0]?.inputHash);
    const writeAttempts = revised?.steps.get('write')?.attempts ?? [];
    expect(writeAttempts[0]).toEqual(writeAttemptBefore);
    expect(writeAttempts[1]?.activation).toBe(2);
    expect(writeAttempts[1]?.idempotencyKey).toBe('A17-I4');
    const stored = h.events(runId).filter((e) => e.step === 'write' && e.activation === 1);
    expect(stored.map((e) => e.type)).toEqual(['step_activated', 'attempt_started', 'attempt_unknown', 'step_settled']);
  });

  it('reuses evidence whose input did not change when a revision does not touch it', async () => {
    h = harness();
    const wf = {
      ...A17,
      id: 'a17-partial',
      steps: A17.steps.map((s) => (s.id === 'validate' ? { ...s, config: { expression: '{"recordId": input.recordId, "status": input.status, "revision": "fixed", "rule": "C2"}' } } : s)),
    };
    writeFileSync(join(h.dir, 'remote-A17.json'), JSON.stringify({ recordId: 'A17', revision: 'I3' }));
    const { runId } = h.start(wf, { recordId: 'A17', status: 'active', revision: 'I3' });
    expect(await h.engine.settled(runId)).toBe('succeeded');
    // `validate` does not read input.revision: under I4 its resolved input is the same.
    h.engine.revise(runId, { recordId: 'A17', status: 'active', revision: 'I4' });
    await until(() => h?.events(runId).some((e) => e.type === 'step_settled' && e.step === 'write' && (e.activation ?? 0) === 2) === true, 'write to settle again');
    const events = h.events(runId);
    const reused = events.filter((e) => e.type === 'evidence_reused');
    expect(reused.map((e) => e.step)).toContain('validate');
    // write's input comes from validate's (unchanged) output, and its earlier attempt is unknown:
    // the unknown is carried, never repeated.
    const carried = events.filter((e) => e.type === 'outcome_carried');
    expect(carried.map((e) => e.step)).toEqual(['write']);
    expect(events.filter((e) => e.type === 'attempt_started' && e.step === 'write')).toHaveLength(1);
  });
});
