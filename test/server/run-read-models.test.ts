// The run read models over real HTTP: `weft serve` on a random port over a real store serves a
// run's RunDetail (with its definition snapshot and what an operator may do now) and its Timeline,
// and both follow the run as a person answers its task.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { Timeline } from '../../shared/api/timeline.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let root: string;
let serving: Serving;
let runId: string;

const get = async (path: string): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { headers });
  return { status: r.status, body: await r.json() };
};
const post = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-server-read-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'review.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'review', version: 1, name: 'Review',
    steps: [
      { id: 'draft', kind: 'transform', config: { expression: '{"title": "t"}' } },
      { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check the draft', assignee: 'ana' }, deadlineMs: 86_400_000 },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'draft', to: 'check' }, { id: 'b', from: 'check', to: 'done' }],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  const started = await post('/api/runs', { workflow: 'review', input: { topic: 'x' } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  runId = (started.body as { runId: string }).runId;
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
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
