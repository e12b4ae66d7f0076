// Every route of the table (shared/api/routes.ts) answers what its entry says: `weft serve` on a
// random port over a real store, each route called as a client would (callRoute's URL and request
// built from the table), its status one the entry lists and its body parsed with the entry's answer
// schema. A route in the table that this test does not exercise fails it, so a new route comes
// with its answer checked.
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_IDS, ROUTES, type HttpRouteId, type RouteAnswerOf, type RouteSpec } from '../../shared/api/routes.ts';
import { routeInit, routeUrl, type RouteCallInput } from '../../shared/api/call-route.ts';
import type { JsonValue } from '../../shared/api/json-value.ts';
import type { Serving } from '../../engine/server/serve.ts';
import { REVIEW_WORKFLOW, serveInProcess, TEST_TOKEN as TOKEN, type InProcessServer } from './serve-in-process.ts';
import { waitUntil } from '../wait-until.ts';

let server: InProcessServer;
let serving: Serving;
const exercised = new Set<string>();

const review = REVIEW_WORKFLOW;
const payment = {
  format: 'weft/v1', id: 'payment', version: 1, name: 'Payment',
  steps: [
    { id: 'paid', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.orderId' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'paid', to: 'done' }],
};
/** A step whose output has a sensitive field (docs/long-running.md): its value is kept by reference. */
const vault = {
  format: 'weft/v1', id: 'vault', version: 1, name: 'Vault',
  steps: [
    { id: 'keep', kind: 'transform', config: { expression: '{"pin": "4321"}' }, output: { type: 'object', properties: { pin: { type: 'string', 'x-weft-sensitive': true } } } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'keep', to: 'done' }],
};
/** An agent step whose first candidate's provider is down: one failure opens its circuit for an hour (docs/routing.md). */
const routed = {
  format: 'weft/v1', id: 'routed', version: 1, name: 'Routed',
  steps: [
    {
      id: 'answer',
      kind: 'agent',
      config: {
        prompt: 'Answer',
        candidates: [
          { id: 'flaky', provider: 'mock', model: 'flaky', mock: { replies: [{ error: { code: 'provider_unavailable', message: 'down', status: 503 } }] } },
          { id: 'steady', provider: 'mock', model: 'steady', mock: { replies: [{ output: { ok: true } }] } },
        ],
        choose: { circuit: { failures: 1, coolDownMs: 3_600_000 } },
      },
      retry: { maxAttempts: 2, initialIntervalMs: 1 },
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'answer', to: 'done' }],
};

/**
 * Calls route `id` as callRoute does, checks the status against the table and the body against
 * the route's answer schema, and records the route as exercised.
 */
async function exercise<K extends HttpRouteId>(id: K, input: RouteCallInput<K>): Promise<{ status: number; answer: RouteAnswerOf<K> }> {
  const parts: { params?: unknown; query?: unknown; body?: unknown } = input;
  const reply = await fetch(`${serving.url}${routeUrl(id, parts.params, parts.query)}`, routeInit(id, TOKEN, parts.body));
  const text = await reply.text();
  const spec: RouteSpec = ROUTES[id];
  expect(spec.statuses, `${id}: ${text.slice(0, 500)}`).toContain(reply.status);
  const answer = ROUTES[id].answer.safeParse(JSON.parse(text));
  expect(answer.error, `${id} answered outside its schema`).toBeUndefined();
  exercised.add(id);
  return { status: reply.status, answer: answer.data as RouteAnswerOf<K> };
}

beforeAll(async () => {
  server = await serveInProcess('weft-route-answers-', { 'review.weft.json': review, 'payment.weft.json': payment, 'routed.weft.json': routed, 'vault.weft.json': vault });
  serving = server.serving;
});

afterAll(async () => {
  await server?.stop();
});

describe('every route of the table answers what its entry says', () => {
  it('answers each HTTP route with a listed status and a body its answer schema parses', async () => {
    const health = (await exercise('health', {})).answer;
    expect(health).toMatchObject({ version: '0.0.0-test', storeKind: 'sqlite', store: join(server.root, 'weft.db') });
    expect(health.workers).toBeUndefined();
    expect((await exercise('workflows.list', {})).answer.workflows.map((w) => w.id).sort()).toEqual(['payment', 'review', 'routed', 'vault']);
    expect((await exercise('validate', { body: { definition: review } })).answer.valid).toBe(true);
    expect((await exercise('workflows.source', { query: { file: 'review.weft.json' } })).answer).toMatchObject({ file: 'review.weft.json', findings: [] });
    expect((await exercise('templates.list', {})).answer.templates.length).toBeGreaterThan(0);
    expect((await exercise('policy.get', {})).answer).toMatchObject({ file: 'weft.policy.json', exists: false, policy: null, workflows: [] });
    const policyText = JSON.stringify({ format: 'weft-policy/v1', retries: [{ id: 'at-most-five', maxAttempts: 5 }] });
    expect((await exercise('policy.save', { body: { text: policyText } })).answer).toMatchObject({ exists: true, text: `${policyText}\n`, diagnostics: [], workflows: [] });

    const first = await exercise('runs.start', { body: { workflow: 'review', input: { topic: 'a' }, key: 'k1' } });
    expect(first.status).toBe(201);
    const again = await exercise('runs.start', { body: { workflow: 'review', input: { topic: 'a' }, key: 'k1' } });
    expect(again).toMatchObject({ status: 200, answer: { runId: first.answer.runId } });
    const second = (await exercise('runs.start', { body: { workflow: 'review', input: { topic: 'b' } } })).answer.runId;
    const runId = first.answer.runId;
    await waitUntil(async () => (await exercise('tasks.list', {})).answer.tasks.length === 2, 'both runs wait for their task');

    expect((await exercise('workflows.get', { params: { id: 'review' } })).answer.versions.map((v) => v.version)).toEqual([1]);
    expect((await exercise('workflows.version', { params: { id: 'review', version: 1 } })).answer.source).toBe('run');
    expect((await exercise('runs.list', { query: { workflow: 'review', limit: 10 } })).answer.runs).toHaveLength(2);
    expect((await exercise('runs.get', { params: { id: runId } })).answer.run.state).toBe('waiting');
    expect((await exercise('runs.value', { params: { id: runId }, query: { path: 'run.input' } })).answer.value).toEqual({ topic: 'a' });
    expect((await exercise('runs.timeline', { params: { id: runId } })).answer.runId).toBe(runId);
    expect((await exercise('runs.events', { params: { id: runId }, query: { after: 0, limit: 3 } })).answer.events).toHaveLength(3);
    expect((await exercise('runs.attempts', { params: { id: runId, stepId: 'draft' }, query: { limit: 5 } })).answer).toMatchObject({ stepId: 'draft', total: 1, from: 0, before: null });
    expect((await exercise('compare', { query: { a: runId, b: second } })).answer.runs[0].id).toBe(runId);
    expect((await exercise('runs.migrate', { params: { id: runId }, body: { toVersion: 1, dryRun: true } })).answer.runs.map((r) => r.plan.verdict)).toEqual(['refused']);
    expect((await exercise('workflows.migrate', { params: { id: 'review' }, body: { toVersion: 1, fromVersion: 1, dryRun: true } })).answer.runs).toHaveLength(2);

    expect((await exercise('runs.act', { params: { id: runId }, body: { action: 'pause', by: 'ana', reason: 'a look first' } })).answer.state).toBe('paused');
    expect((await exercise('runs.act', { params: { id: runId }, body: { action: 'resume' } })).status).toBe(200);
    const plan = await exercise('runs.act', { params: { id: runId }, body: { action: 'revise', input: { topic: 'c' }, dryRun: true } });
    expect(plan).toMatchObject({ status: 200, answer: { dryRun: true } });
    // The review's steps recorded no cost and none is an agent: nothing is listed.
    expect((await exercise('runs.rebill', { params: { id: runId }, query: { action: 'fork', step: 'check' } })).answer).toMatchObject({ action: 'fork', steps: [], total: 0 });
    const fork = await exercise('runs.act', { params: { id: runId }, body: { action: 'fork', from: 'check' } });
    expect(fork.status).toBe(201);
    expect(fork.answer.runId).not.toBe(runId);

    expect((await exercise('tasks.answer', { params: { runId, stepId: 'check' }, body: { action: 'approve', by: 'ana' } })).answer.runId).toBe(runId);
    await waitUntil(async () => (await exercise('runs.get', { params: { id: runId } })).answer.run.state === 'succeeded', 'the approved run ends');
    expect((await exercise('workflows.lessons', { params: { id: 'review' } })).answer).toMatchObject({ workflow: 'review', file: 'review.lessons.json', exists: false, lessons: [], problem: null });
    const lesson = { runId, steps: ['check'], failureMode: 'the checker approved a draft with no sources', changed: 'check lists the sources it read', by: 'ana' };
    expect((await exercise('workflows.addLesson', { params: { id: 'review' }, body: lesson })).answer.lessons).toMatchObject([{ id: 'L1', runId, steps: ['check'], by: 'ana' }]);
    // A note is an action too, and a settled run takes one.
    expect((await exercise('runs.act', { params: { id: runId }, body: { action: 'note', step: 'check', text: 'approved after a call', by: 'ana' } })).answer).toMatchObject({ runId, state: 'succeeded' });
    expect((await exercise('runs.get', { params: { id: runId } })).answer.run.notes).toMatchObject([{ stepId: 'check', text: 'approved after a call', by: 'ana' }]);
    expect((await exercise('runs.scenario', { params: { id: runId } })).answer).toMatchObject({ runId, workflowId: 'review', state: 'succeeded' });
    expect((await exercise('runs.saveScenario', { params: { id: runId } })).answer.file).toBe(`review.scenarios/from-run-${runId}.json`);
    // The run just approved, replayed on its own version: the decision is the recorded one.
    const replayed = await exercise('runs.replay', { params: { id: runId }, body: { against: { workflowId: 'review', version: 1 } } });
    expect(replayed).toMatchObject({ status: 201, answer: { sourceRunId: runId, verdict: 'same', replayState: 'succeeded' } });
    const batch = await exercise('replays', { body: { filter: { workflow: 'review', state: 'succeeded' }, against: { file: 'review.weft.json' } } });
    expect(batch.answer.rows.map((r) => [r.sourceRunId, r.verdict])).toEqual([[runId, 'same']]);
    expect((await exercise('runs.list', { query: { kind: 'replay' } })).answer.runs).toHaveLength(2);
    expect((await exercise('commands', { body: { command: 'act', run: second, action: { action: 'cancel', reason: 'not needed' } } })).answer).toMatchObject({ runId: second, state: 'cancelled' });
    const bulkPreview = await exercise('bulk.preview', { body: { action: 'cancel', filter: { workflow: 'review', state: 'cancelled' } } });
    expect(bulkPreview.answer).toMatchObject({ dryRun: true, counts: { selected: 1, refused: 1 } });
    expect((await exercise('bulk.apply', { body: { action: 'cancel', runs: [second], reason: 'not needed' } })).answer.rows[0]).toMatchObject({ runId: second, status: 'refused', state: 'cancelled' });

    const paying = (await exercise('runs.start', { body: { workflow: 'payment', input: { orderId: 'A17' } } })).answer.runId;
    const sent = await exercise('events.send', { body: { name: 'payment.received', key: 'A17', data: { amount: 12 } } });
    expect(sent.answer).toMatchObject({ status: 'delivered', runId: paying });
    expect((await exercise('stats', { params: { workflowId: 'review' }, query: { version: 1 } })).answer.stats.runs).toBe(3);

    const created = await exercise('workflows.create', { body: { id: 'draft-flow', name: 'Draft flow' } });
    const saved = await exercise('workflows.save', { params: { id: 'draft-flow' }, body: { definition: JSON.parse(JSON.stringify({ ...created.answer.definition, name: 'Renamed in the editor' })) as JsonValue, expectedHash: created.answer.hash } });
    expect(saved.answer.summary.name).toBe('Renamed in the editor');
    expect((await exercise('workflows.rename', { params: { id: 'draft-flow' }, body: { to: 'final-flow' } })).answer.summary.id).toBe('final-flow');
    const file = await exercise('workflows.export', { params: { id: 'final-flow' } });
    expect(file.answer).toMatchObject({ id: 'final-flow' });
    expect((await exercise('workflows.import', { body: { text: JSON.stringify({ ...review, id: 'imported' }) } })).status).toBe(201);
    expect((await exercise('workflows.delete', { params: { id: 'imported' } })).answer.deleted).toBe('imported.weft.json');
  });

  it('answers the WebSocket route with messages its answer schema parses', async () => {
    const ws = new WebSocket(`${serving.url.replace('http', 'ws')}${ROUTES.stream.path}`, ['weft', `weft.bearer.${TOKEN}`]);
    const messages: unknown[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const subscribe = ROUTES.stream.body.parse({ subscribe: { runs: 'all' }, after: 0, batch: true });
    ws.send(JSON.stringify(subscribe));
    await waitUntil(() => messages.some((m) => typeof m === 'object' && m !== null && 'subscribed' in m), 'the stream says it is live');
    ws.close();
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(ROUTES.stream.answer.safeParse(m).error).toBeUndefined();
    exercised.add('stream');
  });

  it('answers the circuits of the providers agent candidates called', async () => {
    expect((await exercise('providers.circuits', {})).answer.circuits).toEqual([]);
    const { runId } = (await exercise('runs.start', { body: { workflow: 'routed', input: {} } })).answer;
    await waitUntil(async () => (await exercise('runs.get', { params: { id: runId } })).answer.run.state === 'succeeded', 'the routed run succeeds on its second candidate');
    const { answer } = await exercise('providers.circuits', {});
    expect(answer.circuits).toEqual([
      { key: 'mock model flaky', provider: 'mock', baseUrl: null, state: 'open', failures: 1, lastFailureAtMs: expect.any(Number) as number, reopensAtMs: expect.any(Number) as number, rule: { failures: 1, coolDownMs: 3_600_000 }, opened: 1 },
      { key: 'mock model steady', provider: 'mock', baseUrl: null, state: 'closed', failures: 0, lastFailureAtMs: null, reopensAtMs: null, rule: { failures: 1, coolDownMs: 3_600_000 }, opened: 0 },
    ]);
    const flaky = answer.circuits[0];
    expect((flaky?.reopensAtMs ?? 0) - (flaky?.lastFailureAtMs ?? 0)).toBe(3_600_000);
  });

  it('opens a sensitive value on record', async () => {
    const { runId } = (await exercise('runs.start', { body: { workflow: 'vault', input: {} } })).answer;
    await waitUntil(async () => (await exercise('runs.get', { params: { id: runId } })).answer.run.state === 'succeeded', 'the vault run succeeds');
    const { answer } = await exercise('runs.openArtifact', { params: { id: runId }, body: { path: 'steps.keep.attempts[0].output.pin', by: 'ana' } });
    expect(answer).toMatchObject({ runId, value: '4321', recorded: true, artifact: { sensitive: true } });
  });

  it('has exercised every route of the table', () => {
    expect(ROUTE_IDS.filter((id) => !exercised.has(id))).toEqual([]);
  });
});
