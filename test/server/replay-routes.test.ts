// The replay routes on a real `weft serve` over a real store: POST /api/runs/:id/replay with a
// stored version, a workspace file or an unsaved draft (what the editor sends), answering the
// ReplayResult; POST /api/replays with a filter, answering rows and counts; and their refusals
// (an unknown run, a draft that is not a workflow or is of another workflow, a replay as the
// source) with the API's error codes. Replays stay out of the runs list unless `kind=replay`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayBatchResult, ReplayResult } from '../../shared/api/replay-result.ts';
import { REVIEW_WORKFLOW, serveInProcess, type InProcessServer } from './serve-in-process.ts';
import { waitUntil } from '../wait-until.ts';

let server: InProcessServer;
let approved: string;
let rejected: string;

/** review v1 with the person's rejection routed to a step that ends the run well: a fix. */
const draft = {
  ...REVIEW_WORKFLOW,
  version: 2,
  steps: [...REVIEW_WORKFLOW.steps, { id: 'rework', kind: 'transform', config: { expression: '{"rework": true}' } }, { id: 'reworked', kind: 'end' }],
  edges: [...REVIEW_WORKFLOW.edges, { id: 'c', from: 'check', to: 'rework', on: 'rejected' }, { id: 'd', from: 'rework', to: 'reworked' }],
};

beforeAll(async () => {
  server = await serveInProcess('weft-replay-routes-', { 'review.weft.json': REVIEW_WORKFLOW });
  const start = async (topic: string): Promise<string> => ((await server.post('/api/runs', { workflow: 'review', input: { topic } })).body as { runId: string }).runId;
  approved = await start('a');
  rejected = await start('b');
  await waitUntil(async () => ((await server.get('/api/tasks')).body as { tasks: unknown[] }).tasks.length === 2, 'both runs wait for their task');
  expect((await server.post(`/api/tasks/${approved}/check`, { action: 'approve', by: 'ana' })).status).toBe(200);
  expect((await server.post(`/api/tasks/${rejected}/check`, { action: 'reject', by: 'ana', reason: 'too short' })).status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

describe('POST /api/runs/:id/replay', () => {
  it('replays a run on an unsaved draft: the recorded rejection now takes the fix', async () => {
    const r = await server.post(`/api/runs/${rejected}/replay`, { against: { definition: draft } });
    expect(r.status).toBe(201);
    const result = ReplayResult.parse(r.body);
    expect(result).toMatchObject({ sourceRunId: rejected, verdict: 'fixed', sourceState: 'failed', replayState: 'succeeded', against: { workflowId: 'review', file: '(draft)' } });
    // The draft did not become a version of the workflow's history.
    const detail = (await server.get('/api/workflows/review')).body as { versions: { version: number }[] };
    expect(detail.versions.map((v) => v.version)).toEqual([1]);
    // The replay opens like any run.
    expect((await server.get(`/api/runs/${result.replayRunId}`)).status).toBe(200);
  });

  it('replays on a workspace file and on a stored version', async () => {
    expect(ReplayResult.parse((await server.post(`/api/runs/${approved}/replay`, { against: { file: 'review.weft.json' } })).body).verdict).toBe('same');
    expect(ReplayResult.parse((await server.post(`/api/runs/${approved}/replay`, { against: { workflowId: 'review', version: 1 } })).body).verdict).toBe('same');
  });

  it('refuses what it cannot replay', async () => {
    const code = async (path: string, body: unknown): Promise<[number, string]> => {
      const r = await server.post(path, body);
      return [r.status, (r.body as { error: { code: string } }).error.code];
    };
    expect(await code('/api/runs/nosuch/replay', { against: { workflowId: 'review', version: 1 } })).toEqual([404, 'not-found']);
    expect(await code(`/api/runs/${approved}/replay`, { against: { workflowId: 'review', version: 7 } })).toEqual([404, 'not-found']);
    expect(await code(`/api/runs/${approved}/replay`, { against: { definition: { ...draft, steps: [] } } })).toEqual([400, 'bad-input']);
    expect(await code(`/api/runs/${approved}/replay`, { against: { definition: { ...draft, id: 'another' } } })).toEqual([400, 'bad-input']);
    expect(await code(`/api/runs/${approved}/replay`, { against: {} })).toEqual([400, 'bad-input']);
    // A script's conditions are JSONata, checked by the engine before it replays (the route checks the shape only).
    expect(await code(`/api/runs/${approved}/replay`, { against: { file: 'review.weft.json' }, script: { check: [{ cases: [{ when: 'input.(', then: { succeed: 1 } }] }] } })).toEqual([400, 'bad-input']);
    expect(await code(`/api/runs/${approved}/replay`, { against: { file: 'review.weft.json' }, script: { check: ['yes'] } })).toEqual([400, 'bad-input']);
    const replay = ReplayResult.parse((await server.post(`/api/runs/${approved}/replay`, { against: { file: 'review.weft.json' } })).body);
    expect(await code(`/api/runs/${replay.replayRunId}/replay`, { against: { file: 'review.weft.json' } })).toEqual([409, 'refused']);
  });
});

describe('POST /api/replays', () => {
  it('answers a row per run of the filter and the counts; replays stay out of the runs list', async () => {
    const r = await server.post('/api/replays', { filter: { workflow: 'review' }, against: { definition: draft } });
    expect(r.status).toBe(201);
    const batch = ReplayBatchResult.parse(r.body);
    expect(Object.fromEntries(batch.rows.map((x) => [x.sourceRunId, x.verdict]))).toEqual({ [approved]: 'same', [rejected]: 'fixed' });
    expect(batch.counts).toEqual({ same: 1, fixed: 1, changed: 0, regressed: 0, incomplete: 0 });
    expect(batch.summary).toBe('1 fixed, 1 same');
    const runs = (await server.get('/api/runs')).body as { runs: { id: string }[] };
    expect(new Set(runs.runs.map((x) => x.id))).toEqual(new Set([approved, rejected]));
    const replays = (await server.get('/api/runs?kind=replay')).body as { runs: { id: string }[] };
    expect(replays.runs.length).toBeGreaterThanOrEqual(batch.rows.length);
    const stats = (await server.get('/api/stats/review')).body as { stats: { runs: number } };
    expect(stats.stats.runs).toBe(2);
  });

  it('refuses a filter without a workflow', async () => {
    const r = await server.post('/api/replays', { filter: {}, against: { file: 'review.weft.json' } });
    expect(r.status).toBe(400);
  });
});
