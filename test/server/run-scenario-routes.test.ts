// A run becomes a test over real HTTP (docs/evolution.md): `weft serve` in this process over a
// real store and workspace. GET /api/runs/:id/scenario answers the scenario of a run that has
// ended (409 while it waits, 404 for an unknown run); POST saves it as
// review.scenarios/from-run-RUN.json beside the workflow's file, where `weft test` finds it, and
// never overwrites it; the saved scenario passes against the workflow.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { RunScenarioView, SavedRunScenario } from '../../shared/api/run-scenario.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { REVIEW_WORKFLOW, serveInProcess, TEST_TOKEN, type Answer, type InProcessServer } from './serve-in-process.ts';
import { waitUntil } from '../wait-until.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await serveInProcess('weft-run-scenario-', { 'review.weft.json': REVIEW_WORKFLOW });
});
afterAll(async () => {
  await server?.stop();
});

/** POST without a body, as the app's client sends a route that takes none. */
async function postEmpty(path: string, token: string | null = TEST_TOKEN): Promise<Answer> {
  const r = await fetch(`${server.serving.url}${path}`, { method: 'POST', headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  return { status: r.status, body: await r.json() };
}

const errorOf = (a: Answer) => ApiErrorBody.parse(a.body).error;

describe('GET and POST /api/runs/:id/scenario', () => {
  it('refuses a run still waiting; once decided, answers its scenario and saves it beside the workflow, once', async () => {
    const started = await server.post('/api/runs', { workflow: 'review', input: { topic: 'wal' } });
    const { runId } = started.body as { runId: string };
    await waitUntil(async () => (await server.get('/api/tasks')).body !== undefined && JSON.stringify((await server.get('/api/tasks')).body).includes(runId), 'the review task open');

    const waiting = await server.get(`/api/runs/${runId}/scenario`);
    expect(waiting.status).toBe(409);
    expect(errorOf(waiting)).toMatchObject({ code: 'refused', message: expect.stringContaining(`run ${runId} is waiting: a test is made from a run that has ended`) });

    const decided = await server.post(`/api/tasks/${runId}/check`, { action: 'approve', by: 'ana', data: { ok: true } });
    expect(decided.status).toBe(200);

    const view = await server.get(`/api/runs/${runId}/scenario`);
    expect(view.status).toBe(200);
    const parsed = RunScenarioView.parse(view.body);
    // The route checks the file's shape only; the scenario schema itself (what `weft test` reads) holds too.
    expect(ScenarioFile.safeParse(parsed.file).success).toBe(true);
    expect(parsed).toMatchObject({ runId, workflowId: 'review', version: 1, state: 'succeeded' });
    expect(parsed.file.scenarios[0]?.decisions).toEqual([{ step: 'check', atMs: expect.any(Number), decision: 'approve', data: { ok: true }, by: 'ana' }]);

    const saved = await postEmpty(`/api/runs/${runId}/scenario`);
    expect(saved.status).toBe(201);
    const where = SavedRunScenario.parse(saved.body);
    expect(where).toEqual({ runId, file: `review.scenarios/from-run-${runId}.json`, workflowFile: 'review.weft.json', name: parsed.file.scenarios[0]?.name });
    const path = join(server.workspace, where.file);
    const file = ScenarioFile.parse(JSON.parse(readFileSync(path, 'utf8')));
    expect(file).toEqual(parsed.file);
    const [scenario] = file.scenarios;
    if (scenario === undefined) throw new Error('no scenario');
    const result = await runScenario(REVIEW_WORKFLOW as Workflow, scenario);
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(result.passed).toBe(true);

    // Saved once: a second save is refused and the file (edited since) stays as it is.
    writeFileSync(path, JSON.stringify({ ...file, edited: true }));
    const before = readFileSync(path, 'utf8');
    const again = await postEmpty(`/api/runs/${runId}/scenario`);
    expect(again.status).toBe(409);
    expect(errorOf(again).message).toBe(`review.scenarios/from-run-${runId}.json exists already: the test of run ${runId} was saved before; nothing was written (delete that file to save it again)`);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('answers 404 for an unknown run, and wants the token to save', async () => {
    const unknown = await server.get('/api/runs/no-such-run/scenario');
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('not-found');
    const anonymous = await postEmpty('/api/runs/no-such-run/scenario', null);
    expect(anonymous.status).toBe(401);
    expect(existsSync(join(server.workspace, 'review.scenarios', 'from-run-no-such-run.json'))).toBe(false);
  });
});
