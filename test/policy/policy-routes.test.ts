// The workspace policy over HTTP, on a real `weft serve` over a real store: GET /api/policy reads
// weft.policy.json with its findings and the workflows it breaks; PUT /api/policy refuses a text
// that is not a valid policy (400, naming the line, the file untouched) and writes a valid one;
// a start of a workflow that breaks it is refused (409) naming the rule; a run's detail carries the
// policy it started under, and a forbidden operator action is refused and never listed as permitted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveInProcess, TEST_HEADERS, type InProcessServer } from '../server/serve-in-process.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'policy');
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as Record<string, unknown>;
const good = fixture('policy_approval_missing.good.weft.json');
const bad = { ...fixture('policy_approval_missing.bad.weft.json'), id: 'payments-unguarded' };
const policyText = `${JSON.stringify({
  format: 'weft-policy/v1',
  approvals: [{ id: 'payments-approved', select: { effects: ['external'], tags: ['payment'] } }],
  forbid: [{ id: 'no-cancel-payments', action: 'cancel', select: { tags: ['payment'] }, description: 'a payment run ends by its own path' }],
}, null, 2)}\n`;

let server: InProcessServer;
beforeAll(async () => {
  server = await serveInProcess('weft-policy-routes-', { 'payments.weft.json': good, 'unguarded.weft.json': bad });
});
afterAll(async () => server?.stop());

const put = async (body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await fetch(`${server.serving.url}/api/policy`, { method: 'PUT', headers: TEST_HEADERS, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

describe('GET and PUT /api/policy', () => {
  it('reads no policy, refuses an invalid text without writing, then writes a valid one with the workflows it finds broken', async () => {
    expect((await server.get('/api/policy')).body).toMatchObject({ exists: false, text: null, policy: null, hash: null });
    const notJson = await put({ text: '{\n  "format": "weft-policy/v1",\n  "retries": [\n}' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: { code: 'bad-input', message: expect.stringMatching(/^the policy was not saved: line 4, column 1: /) } });
    const badRule = await put({ text: '{"format": "weft-policy/v1", "forbid": [{"id": "x", "action": "teleport"}]}' });
    expect(badRule).toMatchObject({ status: 400, body: { error: { path: '$.forbid[0].action' } } });
    expect(existsSync(join(server.workspace, 'weft.policy.json'))).toBe(false);

    const saved = await put({ text: policyText });
    expect(saved.status).toBe(200);
    expect(readFileSync(join(server.workspace, 'weft.policy.json'), 'utf8')).toBe(policyText);
    expect(saved.body).toMatchObject({ exists: true, text: policyText, hash: expect.stringMatching(/^[0-9a-f]{16}$/), diagnostics: [] });
    expect(saved.body['workflows']).toEqual([
      { file: 'unguarded.weft.json', workflowId: 'payments-unguarded', diagnostics: [expect.objectContaining({ code: 'policy_approval_missing', stepId: 'charge', path: '$.steps[2]' })] },
    ]);
  });

  it('shows why a policy file written by hand is not valid, with its line', async () => {
    const path = join(server.workspace, 'weft.policy.json');
    const before = readFileSync(path, 'utf8');
    writeFileSync(path, '{"format": "weft-policy/v1",\n "approvals": [{"id": "A B"}]}');
    const view = (await server.get('/api/policy')).body as { policy: unknown; diagnostics: { code: string; path: string }[] };
    expect(view.policy).toBeNull();
    expect(view.diagnostics[0]).toMatchObject({ code: 'policy-schema-violation', path: '$.approvals[0].id' });
    writeFileSync(path, before);
  });
});

describe('runs under the workspace policy', () => {
  it('refuses to start a workflow that breaks it, naming the rule and the step', async () => {
    const r = await server.post('/api/runs', { workflow: 'payments-unguarded', input: { orderId: 'A1', amount: 5 } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: { code: 'refused', message: expect.stringContaining('policy "payments-approved": step "charge" can be reached without a person\'s approval') } });
  });

  it('starts one that keeps it under the policy, refuses a forbidden cancel and does not offer it', async () => {
    const started = await server.post('/api/runs', { workflow: 'payments', input: { orderId: 'A2', amount: 5 } });
    expect(started.status).toBe(201);
    const runId = (started.body as { runId: string }).runId;
    const hash = ((await server.get('/api/policy')).body as { hash: string }).hash;
    const detail = (await server.get(`/api/runs/${runId}`)).body as { run: { policy: { hash: string }; permittedActions: { action: string }[] } };
    expect(detail.run.policy.hash).toBe(hash);
    expect(detail.run.permittedActions.map((a) => a.action)).toContain('pause');
    expect(detail.run.permittedActions.map((a) => a.action)).not.toContain('cancel');
    const cancel = await server.post(`/api/runs/${runId}/actions`, { action: 'cancel', by: 'ops', reason: 'no longer needed' });
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ error: { message: 'policy "no-cancel-payments" forbids cancelling runs of payments (a payment run ends by its own path); the workspace policy the run started under decides this; nothing was changed' } });
  });
});
