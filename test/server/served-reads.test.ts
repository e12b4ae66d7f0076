// The server's heavy reads (runs page, run detail, events page, timeline, stats) are answered off
// the engine's thread, by the read worker over its own read-only connection: while `weft serve`
// (in this process) answers them, the engine's store on this thread reads no run's log and no
// rollup. And they read what a command just answered: a task approved, the detail, the timeline,
// the runs page and the stats that follow show the run succeeded. Where the worker's code cannot
// be loaded, the same answers come from this thread.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { RunSummaryPage } from '../../shared/api/run-summary.ts';
import { Timeline } from '../../shared/api/timeline.ts';
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { Store } from '../../engine/store/store.ts';
import { ServedReads } from '../../engine/service/served-reads.ts';
import { end, harness, wf } from '../engine/harness.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { REVIEW_WORKFLOW, serveInProcess, type InProcessServer } from './serve-in-process.ts';

let server: InProcessServer;

const get = (path: string): ReturnType<InProcessServer['get']> => server.get(path);
const post = (path: string, body: unknown): ReturnType<InProcessServer['post']> => server.post(path, body);

beforeAll(async () => {
  server = await serveInProcess('weft-served-reads-', { 'review.weft.json': REVIEW_WORKFLOW });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.stop();
});

describe('the server reads off the engine thread', () => {
  it('answers runs, detail, events, timeline and stats without reading a log or rollup on this thread, and after a command, with its effect', async () => {
    const started = await post('/api/runs', { workflow: 'review', input: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId = (started.body as { runId: string }).runId;
    // What this thread's stores read for readers from here on: no run's log (readEvents; the
    // engine's own loads to act, readRunLog, are its work), no rollups.
    const reads = [vi.spyOn(Store.prototype, 'readEvents'), vi.spyOn(Store.prototype, 'rolledUpRuns'), vi.spyOn(Store.prototype, 'rolledUpMetricsOf')];

    expect(RunDetail.parse((await get(`/api/runs/${runId}`)).body).run.state).toBe('waiting');
    expect((await post(`/api/tasks/${runId}/check`, { action: 'approve', by: 'ana' })).body).toMatchObject({ runId, state: 'succeeded' });
    // Read-your-writes: every read after the answer shows the run as the answer said.
    expect(RunDetail.parse((await get(`/api/runs/${runId}`)).body).run.state).toBe('succeeded');
    const page = RunSummaryPage.parse((await get('/api/runs?workflow=review')).body);
    expect(page.runs.map((r) => [r.id, r.state])).toEqual([[runId, 'succeeded']]);
    const events = (await get(`/api/runs/${runId}/events?after=0&limit=1000`)).body as { events: { type: string }[] };
    expect(events.events.at(-1)?.type).toBe('run_state_changed');
    expect(Timeline.parse((await get(`/api/runs/${runId}/timeline`)).body).endedAtMs).not.toBeNull();
    const stats = WorkflowReport.parse((await get('/api/stats/review')).body);
    expect(stats.stats.states.succeeded).toBe(1);
    expect(stats.runs.map((r) => r.runId)).toEqual([runId]);
    expect((await get('/api/stats/nope')).status).toBe(404);
    expect((await get('/api/runs/r-nope')).status).toBe(404);

    for (const spy of reads) expect(spy.mock.calls.length, spy.getMockName()).toBe(0);
  });
});

describe('GET /api/stats over many runs', () => {
  it('lists the newest ?runs=N runs only, says how many it left out, and keeps the figures and the page\'s counts over all', async () => {
    for (let i = 0; i < 3; i++) expect((await post('/api/runs', { workflow: 'review', input: {} })).status).toBe(201);
    const all = WorkflowReport.parse((await get('/api/stats/review?runs=1000')).body);
    expect(all.runs).toHaveLength(4);
    expect(all.runsOmitted).toBe(0);
    const two = WorkflowReport.parse((await get('/api/stats/review?runs=2&tz=-330')).body);
    expect(two.runs.map((r) => r.runId)).toEqual(all.runs.slice(-2).map((r) => r.runId));
    expect(two.runsOmitted).toBe(2);
    expect(two.stats).toEqual(all.stats);
    expect(two.stats.states).toMatchObject({ succeeded: 1, waiting: 3 });
    expect(two.edgeRuns).toEqual({ a: 4, b: 1 });
    expect(two.runsOverTime?.offsetMin).toBe(-330);
    expect(two.runsOverTime?.buckets.reduce((n, b) => n + b.runs, 0)).toBe(4);
    const bad = await get('/api/stats/review?runs=-1');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/runs/);
  });
});

describe('where no read worker can run', () => {
  it('answers the same reads on the calling thread', async () => {
    const h = harness();
    try {
      const runId = h.start(wf('quick', [{ id: 'one', kind: 'transform', config: { expression: '1' } }, end()], [{ id: 'e', from: 'one', to: 'done' }])).runId;
      await h.engine.settled(runId);
      const service = new EngineService(h.store, h.engine);
      const reads = new ServedReads(service, h.dbPath, new URL('./no-such-worker.mjs', import.meta.url));
      try {
        const detail = RunDetail.parse(JSON.parse((await reads.runDetail(runId, 1000)).text));
        expect(detail.run.state).toBe('succeeded');
        expect(WorkflowReport.parse(JSON.parse((await reads.stats('quick')).text)).stats.runs).toBe(1);
        await expect(reads.runDetail('r-nope', 1000)).rejects.toThrow(/no run "r-nope"/);
      } finally {
        await reads.close();
      }
    } finally {
      h.close();
    }
  });
});
