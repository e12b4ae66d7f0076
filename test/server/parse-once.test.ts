// Each command a request carries is parsed once, by the service: the server hands the body on
// unparsed (it used to parse it with the same schema first, then the service again), and
// `POST /api/validate` goes through the service like every other command. A real `weft serve`
// in this process over a real store, with the schemas' safeParse counted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunAction } from '../../shared/api/run-action.ts';
import { StartRunCommand } from '../../shared/api/start-run-command.ts';
import { TaskAction } from '../../shared/api/task-action.ts';
import { ForwardedCommand } from '../../shared/api/forwarded-command.ts';
import { ValidateRequest } from '../../shared/api/workflow-views.ts';
import { EngineService } from '../../engine/service/engine-service.ts';
import { serveInProcess, type InProcessServer } from './serve-in-process.ts';

const review = {
  format: 'weft/v1', id: 'review', version: 1, name: 'Review',
  steps: [
    { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check', assignee: 'ana' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'check', to: 'done' }],
};

let server: InProcessServer;

const post = (path: string, body: unknown): ReturnType<InProcessServer['post']> => server.post(path, body);

/** How many times `schema` is parsed while `act` runs. */
async function parsesOf(schema: { safeParse: (value: unknown) => unknown }, act: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(schema, 'safeParse');
  try {
    await act();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  server = await serveInProcess('weft-parse-once-', { 'review.weft.json': review });
});

afterAll(async () => {
  await server?.stop();
});

describe('a request body is parsed once, by the service', () => {
  it('parses a start, an action, an answer and a forwarded command once each', async () => {
    let runId = '';
    expect(await parsesOf(StartRunCommand, async () => {
      const started = await post('/api/runs', { workflow: 'review', input: {} });
      expect(started.status).toBe(201);
      runId = (started.body as { runId: string }).runId;
    })).toBe(1);
    expect(await parsesOf(RunAction, async () => expect((await post(`/api/runs/${runId}/actions`, { action: 'pause' })).status).toBe(200))).toBe(1);
    expect(await parsesOf(ForwardedCommand, async () => expect((await post('/api/commands', { command: 'act', run: runId, action: { action: 'resume' } })).status).toBe(200))).toBe(1);
    expect(await parsesOf(TaskAction, async () => expect((await post(`/api/tasks/${runId}/check`, { action: 'approve' })).status).toBe(200))).toBe(1);
  });

  it('refuses a malformed body with the service\'s error, as before', async () => {
    const refused = await post('/api/runs/whatever/actions', { action: 'pause', by: ' ' });
    expect(refused).toEqual({ status: 400, body: { error: { code: 'bad-input', path: '$.by', message: 'the action: $.by: must not be empty or only spaces' } } });
  });

  it('validates through the service', async () => {
    const validate = vi.spyOn(EngineService.prototype, 'validate');
    try {
      const answer = await parsesOf(ValidateRequest, async () => expect(await post('/api/validate', { text: JSON.stringify(review) })).toEqual({ status: 200, body: { valid: true, diagnostics: [] } }));
      expect(answer).toBe(1);
      expect(validate).toHaveBeenCalledTimes(1);
    } finally {
      validate.mockRestore();
    }
  });
});
