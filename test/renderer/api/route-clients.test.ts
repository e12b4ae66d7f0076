// The app's clients call the route table (callRoute), and send what they sent when each wrote
// its own path: the same method, URL (parameters encoded, empty filters left out, query order) and
// body. A real HTTP server on 127.0.0.1 records each request and answers what the case needs.
// ApiError is the shared RouteCallError: one class, whichever name a caller catches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../../renderer/api/api-client.ts';
import { CompareClient } from '../../../renderer/api/compare-client.ts';
import { PayloadClient } from '../../../renderer/api/payload-client.ts';
import { RunActionsClient } from '../../../renderer/api/run-actions-client.ts';
import { StatsClient } from '../../../renderer/api/stats-client.ts';
import { TimelineClient } from '../../../renderer/api/timeline-client.ts';
import { WorkflowFilesClient } from '../../../renderer/api/workflow-files-client.ts';
import { RouteCallError } from '../../../shared/api/call-route.ts';
import { startHttpRecorder, type Arrived, type HttpRecorder } from '../../http-recorder.ts';

let recorder: HttpRecorder;
let base = '';
let arrived: Arrived[] = [];
const answer = (status: number, body: unknown): void => recorder.answer(status, body);

beforeAll(async () => {
  recorder = await startHttpRecorder();
  ({ base, arrived } = recorder);
});

afterAll(() => recorder.close());

describe('the app clients call the route table', () => {
  it('lists runs with only the filters given, in the order they were always sent', async () => {
    const api = new ApiClient('tok', base);
    answer(200, { runs: [], next: null });
    await api.runs({ workflow: 'a-b', state: 'failed', q: 'x y', after: 'r1', limit: 50 });
    expect(arrived.at(-1)).toMatchObject({ method: 'GET', url: '/api/runs?workflow=a-b&state=failed&q=x+y&after=r1&limit=50' });
    await api.runs({ workflow: '', state: '', q: '', limit: 0 });
    expect(arrived.at(-1)?.url).toBe('/api/runs');
    await expect(api.runs({ state: 'nope' })).rejects.toMatchObject({ code: 'bad-input', path: '$.state' });
  });

  it('fills path parameters percent-encoded and reads each answer with its route', async () => {
    answer(404, { error: { code: 'not-found', message: 'no run "r 1/x"' } });
    const refused = await new ApiClient('tok', base).run('r 1/x').catch((e: unknown) => e);
    expect(arrived.at(-1)?.url).toBe('/api/runs/r%201%2Fx');
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toBeInstanceOf(RouteCallError);
    expect(refused).toMatchObject({ status: 404, code: 'not-found', message: 'no run "r 1/x"' });

    answer(200, { events: [], next: null });
    expect(await new TimelineClient('tok', base).events('r1', 20, 5)).toEqual({ events: [], next: null });
    expect(arrived.at(-1)?.url).toBe('/api/runs/r1/events?after=20&limit=5&elide=65536');

    answer(200, { path: 'run.input', kind: 'object', bytes: 2, total: 0, offset: 0, value: {} });
    await new PayloadClient('tok', base).value('r1', 'steps.a.output', { depth: 1, limit: 500 });
    expect(arrived.at(-1)?.url).toBe('/api/runs/r1/value?path=steps.a.output&depth=1&limit=500');

    answer(404, { error: { code: 'not-found', message: 'no run "zz" (side A)' } });
    await expect(new CompareClient('tok', base).compare('zz', 'r2')).rejects.toMatchObject({ code: 'not-found' });
    expect(arrived.at(-1)?.url).toBe('/api/compare?a=zz&b=r2');
  });

  it('gives null for the report of a workflow that never ran, and throws any other refusal', async () => {
    const stats = new StatsClient('tok', base);
    answer(404, { error: { code: 'not-found', message: 'no runs of "w"' } });
    expect(await stats.report('w', 2)).toBeNull();
    expect(arrived.at(-1)?.url).toBe('/api/stats/w?version=2');
    answer(400, { error: { code: 'bad-input', message: 'bad version' } });
    await expect(stats.report('w')).rejects.toMatchObject({ code: 'bad-input' });
    expect(arrived.at(-1)?.url).toBe('/api/stats/w');
  });

  it('sends commands with the route method and body, and checks them before sending', async () => {
    const actions = new RunActionsClient('tok', base);
    answer(200, { runId: 'r9', state: 'running' });
    await actions.taskAction('r 1', 'review', { action: 'approve', by: 'ana' });
    expect(arrived.at(-1)).toMatchObject({ method: 'POST', url: '/api/tasks/r%201/review', body: '{"action":"approve","by":"ana"}' });
    const before = arrived.length;
    // The check throws as the call is made, as it always did; a caller awaiting it sees a rejection.
    await expect(Promise.resolve().then(() => actions.runAction('r1', { action: 'pause', by: ' ' }))).rejects.toMatchObject({ status: 400, code: 'bad-input' });
    expect(arrived.length).toBe(before);

    const files = new WorkflowFilesClient('tok', base);
    answer(200, { deleted: 'a.weft.json' });
    await files.remove('a');
    expect(arrived.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/workflows/a', body: '' });
    recorder.answerText(200, '{\n  "id": "a"\n}\n');
    expect(await files.exportFile('a')).toEqual({ fileName: 'a.weft.json', text: '{\n  "id": "a"\n}\n' });
    expect(arrived.at(-1)).toMatchObject({ method: 'GET', url: '/api/workflows/a/file' });
    recorder.answerText(502, 'bad gateway');
    await expect(files.exportFile('a')).rejects.toMatchObject({ status: 502, code: 'http-error' });
  });
});
