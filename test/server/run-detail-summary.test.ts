// `GET /api/runs/:id` is a summary: each step carries its latest DETAIL_ATTEMPTS attempts and, where
// it has more, their count; `GET /api/runs/:id/steps/:stepId/attempts` pages the older ones. Over a
// real `weft serve` (in this process, its read worker on its own thread) and a real store: a run
// whose steps have no more attempts than that answers exactly what the uncut detail says; a loop
// run's summary plus its pages is every attempt `weft inspect --json` shows, with value paths that
// address the right attempt; bad input is named with how to fix it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { DETAIL_ATTEMPTS, StepAttemptsPage } from '../../shared/api/step-attempts.ts';
import { DETAIL_VALUE_LIMIT } from '../../shared/api/elided-value.ts';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { openReadOnlyStore } from '../../engine/service/read-only-store.ts';
import { RunReader } from '../../engine/service/run-reader.ts';
import { elideRunDetail } from '../../shared/run/elide-values.ts';
import { waitUntil } from '../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const headers = { authorization: `Bearer ${TOKEN}` };
/** Passes of the loop: each step gets this many attempts. */
const PASSES = 31;

let root: string;
let serving: Serving;

const get = async (path: string): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { headers });
  return { status: r.status, body: await r.json() };
};
const post = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};
const started = async (workflow: string): Promise<string> => {
  const r = await post('/api/runs', { workflow, input: {} });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const runId = (r.body as { runId: string }).runId;
  await waitUntil(async () => RunDetail.parse((await get(`/api/runs/${runId}`)).body).run.state === 'succeeded', `run ${runId} succeeds`);
  return runId;
};
const message = (body: unknown): string => (body as { error: { message: string } }).error.message;
/** What `weft inspect --json` reads (the whole detail, every attempt, from the store), with the definition the server adds. */
const inspected = async (runId: string): Promise<RunDetail> => {
  const ro = await openReadOnlyStore(join(root, 'weft.db'));
  try {
    const reader = new RunReader(ro.store);
    return { ...reader.runDetail(runId), definition: reader.fold(runId).workflow };
  } finally {
    ro.close();
  }
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-detail-summary-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const big = 'x'.repeat(DETAIL_VALUE_LIMIT + 10);
  writeFileSync(join(workspace, 'loop.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'loop', version: 1, name: 'Loop',
    steps: [
      // Each pass's output is its pass number and a value over the detail's limit, so it comes as a stub.
      { id: 'a', kind: 'transform', config: { expression: `{"pass": $activation, "big": "${big}"}` } },
      { id: 'b', kind: 'transform', config: { expression: '$activation' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'a-b', from: 'a', to: 'b' },
      { id: 'again', from: 'b', to: 'a', maxTraversals: PASSES - 1 },
      { id: 'out', from: 'b', to: 'done', on: 'exhausted' },
    ],
  }));
  writeFileSync(join(workspace, 'short.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'short', version: 1, name: 'Short',
    steps: [
      { id: 'a', kind: 'transform', config: { expression: '{"pass": $activation}' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'again', from: 'a', to: 'a', maxTraversals: DETAIL_ATTEMPTS - 1 },
      { id: 'out', from: 'a', to: 'done', on: 'exhausted' },
    ],
  }));
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('the run detail over HTTP is a summary', () => {
  it('answers a run with at most DETAIL_ATTEMPTS attempts per step exactly as the whole detail', async () => {
    const runId = await started('short');
    const answered = (await get(`/api/runs/${runId}`)).body;
    const whole = await inspected(runId);
    expect(whole.steps.find((s) => s.id === 'a')?.attempts).toHaveLength(DETAIL_ATTEMPTS);
    expect(answered).toEqual(JSON.parse(JSON.stringify(elideRunDetail(whole, DETAIL_VALUE_LIMIT))));
    expect(JSON.stringify(answered)).not.toContain('attemptCount');
  });

  it('carries each step\'s latest attempts and their count; the pages before them are every older attempt', async () => {
    const runId = await started('loop');
    const summary = RunDetail.parse((await get(`/api/runs/${runId}`)).body);
    const whole = elideRunDetail(await inspected(runId), DETAIL_VALUE_LIMIT);
    for (const id of ['a', 'b']) {
      const step = summary.steps.find((s) => s.id === id);
      const all = whole.steps.find((s) => s.id === id)?.attempts ?? [];
      expect(all).toHaveLength(PASSES);
      expect(step?.attemptCount).toBe(PASSES);
      expect(step?.attempts).toEqual(all.slice(PASSES - DETAIL_ATTEMPTS));
      // The rest of the step is the summary's, cut or not.
      expect({ ...step, attempts: [], attemptCount: undefined }).toEqual({ ...whole.steps.find((s) => s.id === id), attempts: [], attemptCount: undefined });

      // Older pages, newest first, from the summary's first place down to the first attempt.
      const older: unknown[] = [];
      let before: number | null = PASSES - DETAIL_ATTEMPTS;
      const pages: number[] = [];
      while (before !== null) {
        const r = await get(`/api/runs/${runId}/steps/${id}/attempts?before=${before}&limit=4`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const page = StepAttemptsPage.parse(r.body);
        expect(page).toMatchObject({ runId, stepId: id, total: PASSES, from: Math.max(0, before - 4) });
        older.unshift(...page.attempts);
        pages.push(page.attempts.length);
        before = page.before;
      }
      expect(pages).toEqual([4, 4, 3]);
      expect(older).toEqual(all.slice(0, PASSES - DETAIL_ATTEMPTS));
    }
    // Without a cursor: the step's latest attempts, as many as asked.
    const latest = StepAttemptsPage.parse((await get(`/api/runs/${runId}/steps/a/attempts?limit=3`)).body);
    expect(latest.attempts.map((a) => a.id)).toEqual(['a/29.1', 'a/30.1', 'a/31.1']);
    expect(latest).toMatchObject({ from: PASSES - 3, before: PASSES - 3 });

    // A stub's path addresses the attempt by its place in the whole list: the value route reads it back.
    const first = StepAttemptsPage.parse((await get(`/api/runs/${runId}/steps/a/attempts?before=1`)).body);
    const stub = first.attempts[0]?.output;
    expect(stub).toMatchObject({ $weft: 'elided', path: 'steps.a.attempts[0].output' });
    const shown = summary.steps.find((s) => s.id === 'a')?.attempts[0]?.output;
    expect(shown).toMatchObject({ $weft: 'elided', path: `steps.a.attempts[${PASSES - DETAIL_ATTEMPTS}].output` });
    const value = await get(`/api/runs/${runId}/value?path=${encodeURIComponent(`steps.a.attempts[${PASSES - DETAIL_ATTEMPTS}].output.pass`)}`);
    expect(value.body).toMatchObject({ value: PASSES - DETAIL_ATTEMPTS + 1 });
  });

  it('names an unknown step, a cursor past the end and a bad number, with how to fix them', async () => {
    const runId = await started('short');
    const unknown = await get(`/api/runs/${runId}/steps/nope/attempts`);
    expect(unknown.status).toBe(404);
    expect(message(unknown.body)).toMatch(/no step "nope"; its steps are a, done/);
    const past = await get(`/api/runs/${runId}/steps/a/attempts?before=21`);
    expect(past.status).toBe(400);
    expect(message(past.body)).toMatch(/before=21 is past the last attempt of step "a", which has 20; ask with before at most 20/);
    const word = await get(`/api/runs/${runId}/steps/a/attempts?before=abc`);
    expect(word.status).toBe(400);
    expect(message(word.body)).toMatch(/before is the place of an attempt/);
    expect((await get(`/api/runs/${runId}/steps/a/attempts?limit=0`)).status).toBe(400);
    expect((await get(`/api/runs/${runId}/steps/a/attempts?limit=201`)).status).toBe(400);
    expect((await get(`/api/runs/${runId}/steps/9bad/attempts`)).status).toBe(400);
    expect((await get('/api/runs/r-nope/steps/a/attempts')).status).toBe(404);
  });
});
