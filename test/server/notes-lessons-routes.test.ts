// Notes and lessons over the API, on a real `weft serve` and store: a note on a waiting run and
// on a step is in the run's detail; a blank note, an unknown step, a lesson about an unknown
// step or from another workflow's run are refused with the field named; a broken lessons file is
// reported by GET (place and fix) and refused by POST, and left byte for byte as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_WORKFLOW, serveInProcess, type InProcessServer } from './serve-in-process.ts';
import { waitUntil } from '../wait-until.ts';

let server: InProcessServer;
let runId = '';
const other = { ...REVIEW_WORKFLOW, id: 'other', name: 'Other' };

beforeAll(async () => {
  server = await serveInProcess('weft-notes-lessons-', { 'review.weft.json': REVIEW_WORKFLOW, 'other.weft.json': other });
  runId = ((await server.post('/api/runs', { workflow: 'review', input: {} })).body as { runId: string }).runId;
  await waitUntil(async () => ((await server.get(`/api/runs/${runId}`)).body as { run: { state: string } }).run.state === 'waiting', 'the run waits for its check');
});

afterAll(async () => {
  await server?.stop();
});

describe('notes over the API', () => {
  it('records a note on the run and on a step, in any state', async () => {
    expect((await server.post(`/api/runs/${runId}/actions`, { action: 'note', text: 'waiting on legal', by: 'bo' })).status).toBe(200);
    expect((await server.post(`/api/runs/${runId}/actions`, { action: 'note', step: 'check', text: 'ana is out today' })).status).toBe(200);
    const detail = (await server.get(`/api/runs/${runId}`)).body as { run: { state: string; notes: { stepId: string | null; text: string; by: string }[] } };
    expect(detail.run.state).toBe('waiting');
    expect(detail.run.notes.map((n) => [n.stepId, n.text])).toEqual([[null, 'waiting on legal'], ['check', 'ana is out today']]);
  });

  it('refuses a blank note and an unknown step, naming them', async () => {
    const blank = await server.post(`/api/runs/${runId}/actions`, { action: 'note', text: '  ' });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain('$.text: must not be empty or only spaces');
    const step = await server.post(`/api/runs/${runId}/actions`, { action: 'note', step: 'nope', text: 'x' });
    expect(step.status).toBe(400);
    expect(JSON.stringify(step.body)).toContain(`run ${runId} has no step \\"nope\\"`);
  });
});

describe('lessons over the API', () => {
  const file = (): string => join(server.workspace, 'review.lessons.json');
  const lesson = { steps: ['check'], failureMode: 'approved without sources', changed: 'check lists its sources' };

  it('refuses an unknown step and a run of another workflow, writing nothing', async () => {
    const step = await server.post('/api/workflows/review/lessons', { ...lesson, runId, steps: ['nope'] });
    expect(step.status).toBe(400);
    expect(JSON.stringify(step.body)).toContain('has no step \\"nope\\"; its steps are draft, check, done');
    const wrong = await server.post('/api/workflows/other/lessons', { ...lesson, runId });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain(`run ${runId} is a run of workflow \\"review\\", not \\"other\\"`);
    expect((await server.get('/api/workflows/review/lessons')).body).toMatchObject({ exists: false, lessons: [] });
  });

  it('reports a broken file with its place and fix, and never writes over it', async () => {
    const broken = '{"format": "weft-lessons/v1", "workflow": "review", "lessons": [}\n';
    writeFileSync(file(), broken);
    const view = await server.get('/api/workflows/review/lessons');
    expect(view.status).toBe(200);
    expect((view.body as { problem: string }).problem).toMatch(/^review\.lessons\.json: not valid JSON at line 1, column \d+/);
    const add = await server.post('/api/workflows/review/lessons', { ...lesson, runId });
    expect(add.status).toBe(409);
    expect(JSON.stringify(add.body)).toContain('the file was left as it is and no lesson was recorded');
    expect(readFileSync(file(), 'utf8')).toBe(broken);
  });
});
