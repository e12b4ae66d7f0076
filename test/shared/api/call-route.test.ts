// callRoute builds each call from the route table (method, path with its parameters, query, JSON
// body, token) and reads the answer with the route's answer schema. A real HTTP server on
// 127.0.0.1 stands in for the engine: it records what arrived and answers what each case needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, routeUrl, RouteCallError, type RouteClient } from '../../../shared/api/call-route.ts';
import { startHttpRecorder, type Arrived, type HttpRecorder } from '../../http-recorder.ts';

let recorder: HttpRecorder;
let client: RouteClient;
let arrived: Arrived[] = [];

beforeAll(async () => {
  recorder = await startHttpRecorder();
  arrived = recorder.arrived;
  client = { base: recorder.base, token: 'tok', fetch: (url, init) => fetch(url, init) };
});

afterAll(() => recorder.close());

describe('callRoute', () => {
  it('sends a GET with its parameters percent-encoded and its query, and parses the answer', async () => {
    recorder.answer(200, { events: [], next: null });
    const page = await callRoute(client, 'runs.events', { params: { id: 'r 1/x' }, query: { after: 20, limit: 5, elide: undefined } });
    expect(page).toEqual({ events: [], next: null });
    expect(arrived.at(-1)).toEqual({ method: 'GET', url: '/api/runs/r%201%2Fx/events?after=20&limit=5', authorization: 'Bearer tok', contentType: undefined, body: '' });
  });

  it('sends a body as JSON with the route\'s method', async () => {
    recorder.answer(201, { runId: 'r9', state: 'running' });
    expect(await callRoute(client, 'runs.start', { body: { workflow: 'review', input: { a: 1 } } })).toEqual({ runId: 'r9', state: 'running' });
    expect(arrived.at(-1)).toMatchObject({ method: 'POST', url: '/api/runs', contentType: 'application/json', body: '{"workflow":"review","input":{"a":1}}' });
    recorder.answer(200, { deleted: 'a.weft.json' });
    await callRoute(client, 'workflows.delete', { params: { id: 'a' } });
    expect(arrived.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/workflows/a', body: '' });
  });

  it('throws the API\'s error as a RouteCallError with its code, message and path', async () => {
    recorder.answer(400, { error: { code: 'bad-input', message: 'the action: $.by: must not be empty or only spaces', path: '$.by' } });
    const refused = await callRoute(client, 'runs.act', { params: { id: 'r1' }, body: { action: 'pause', by: ' ' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RouteCallError);
    expect(refused).toMatchObject({ status: 400, code: 'bad-input', path: '$.by', message: 'the action: $.by: must not be empty or only spaces' });
  });

  it('refuses an answer outside the route\'s schema as bad-answer, naming the route', async () => {
    recorder.answer(200, { version: '1', workspace: '/w' });
    await expect(callRoute(client, 'health', {})).rejects.toMatchObject({ code: 'bad-answer', message: expect.stringMatching(/^the answer of GET \/api\/health does not match its schema at store/) });
  });

  it('names a missing path parameter instead of sending "undefined"', () => {
    expect(() => routeUrl('runs.get', {})).toThrow('GET /api/runs/:id needs the path parameter "id"');
  });
});
