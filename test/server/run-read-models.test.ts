// The run read models over real HTTP: `weft serve` on a random port over a real store serves a
// run's RunDetail (with its definition snapshot and what an operator may do now) and its Timeline,
// and both follow the run as a person answers its task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { Timeline } from '../../shared/api/timeline.ts';
import { REVIEW_WORKFLOW, serveInProcess, type InProcessServer } from './serve-in-process.ts';

let server: InProcessServer;
let runId: string;

const get = (path: string): ReturnType<InProcessServer['get']> => server.get(path);
const post = (path: string, body: unknown): ReturnType<InProcessServer['post']> => server.post(path, body);

beforeAll(async () => {
  server = await serveInProcess('weft-server-read-', { 'review.weft.json': REVIEW_WORKFLOW });
  const started = await post('/api/runs', { workflow: 'review', input: { topic: 'x' } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  runId = (started.body as { runId: string }).runId;
});

afterAll(async () => {
  await server?.stop();
});

describe('GET /api/runs/:id and /api/runs/:id/timeline', () => {
  it('serve the RunDetail with its definition and permitted actions, and the Timeline, as the run goes on', async () => {
    const waiting = await get(`/api/runs/${runId}`);
    expect(waiting.status).toBe(200);
    const detail = RunDetail.parse(waiting.body);
    expect(detail.run).toMatchObject({ id: runId, state: 'waiting', input: { topic: 'x' } });
    expect(detail.definition?.steps.map((s) => s.id)).toEqual(['draft', 'check', 'done']);
    const check = detail.steps.find((s) => s.id === 'check');
    expect(check?.permittedActions.map((a) => a.action)).toEqual(['skip', 'fork', 'approve', 'reject', 'reassign']);
    expect(check?.permittedActions.find((a) => a.action === 'approve')?.why).toBe('the approve task "Check the draft" waits for ana');
    expect(detail.steps.find((s) => s.id === 'draft')?.attempts[0]).toMatchObject({ state: 'succeeded', output: { title: 't' }, effect: 'none', evidence: { id: 'draft/1.1', satisfies: true } });
    expect(detail.tasks.map((t) => [t.stepId, t.assignee])).toEqual([['check', 'ana']]);
    expect(detail.edges.map((e) => [e.id, e.from, e.to, e.taken])).toEqual([['a', 'draft', 'check', true]]);
    expect(detail.run.permittedActions.map((a) => a.action)).toEqual(['pause', 'cancel', 'revise']);

    const before = await get(`/api/runs/${runId}/timeline`);
    expect(before.status).toBe(200);
    const open = Timeline.parse(before.body);
    expect(open.endedAtMs).toBeNull();
    expect(open.spans.filter((s) => s.kind === 'waiting_person').map((s) => [s.step, s.endMs])).toEqual([['check', null]]);

    expect((await post(`/api/tasks/${runId}/check`, { action: 'approve', by: 'ana' })).status).toBe(200);
    const after = RunDetail.parse((await get(`/api/runs/${runId}`)).body);
    expect(after.run.state).toBe('succeeded');
    expect(after.steps.find((s) => s.id === 'check')?.permittedActions.map((a) => a.action)).toEqual(['fork']);
    expect(after.run.permittedActions.map((a) => a.action)).toEqual(['revise']);
    expect(after.tasks).toEqual([]);
    const closed = Timeline.parse((await get(`/api/runs/${runId}/timeline`)).body);
    expect(closed.endedAtMs).not.toBeNull();
    expect(closed.spans.every((s) => s.endMs !== null)).toBe(true);
    const { activeMs, waitingMs, queueMs, attentionMs } = closed.totals;
    expect(activeMs + waitingMs + queueMs + attentionMs).toBe((closed.endedAtMs ?? 0) - closed.startedAtMs);
  });

  it('answers an unknown run with 404', async () => {
    const r = await get('/api/runs/r-nope/timeline');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'not-found' } });
  });
});
