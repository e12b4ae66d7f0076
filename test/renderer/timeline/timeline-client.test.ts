// TimelineClient against the real server over a real store: the timeline and the paged log of a
// run the engine made parse with the app's schemas, page without gap or duplicate, and build the
// model the view draws.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type Serving } from '../../../engine/server/serve.ts';
import { TimelineClient } from '../../../renderer/api/timeline-client.ts';
import { ApiError } from '../../../renderer/api/api-client.ts';
import { buildTimelineModel } from '../../../renderer/runs/timeline/timeline-model.ts';
import type { RunEvent } from '../../../shared/events/run-event.ts';
import { WAIT_BOUND_MS } from '../../wait-until.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const PASSES = 30;
let root = '';
let serving: Serving;
let runId = '';

const loop = {
  format: 'weft/v1',
  id: 'loop',
  version: 1,
  name: 'Loop',
  steps: [
    { id: 'a', kind: 'transform', config: { expression: '1' } },
    { id: 'b', kind: 'transform', config: { expression: '1' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { id: 'a-b', from: 'a', to: 'b' },
    { id: 'again', from: 'b', to: 'a', maxTraversals: PASSES - 1 },
    { id: 'done', from: 'b', to: 'end', on: 'exhausted' },
  ],
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-timeline-client-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'loop.weft.json'), JSON.stringify(loop));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'ana' };
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env });
  const res = await fetch(`${serving.url}/api/runs`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ workflow: 'loop', input: {} }) });
  runId = ((await res.json()) as { runId: string }).runId;
  const client = new TimelineClient(TOKEN, serving.url);
  for (const start = Date.now(); (await client.timeline(runId)).endedAtMs === null; ) {
    if (Date.now() - start > WAIT_BOUND_MS) throw new Error('the loop run did not end');
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

it('pages a run the engine made and builds its timeline model', async () => {
  const client = new TimelineClient(TOKEN, serving.url);
  const timeline = await client.timeline(runId);
  const events: RunEvent[] = [];
  let after = 0;
  for (let pages = 0; ; pages++) {
    const page = await client.events(runId, after, 50);
    events.push(...page.events);
    if (page.next === null) break;
    after = page.next;
    expect(pages).toBeLessThan(100);
  }
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.length).toBeGreaterThan(50 * 4);
  const model = buildTimelineModel(timeline, events);
  // The run's row, a and b per pass, then the end step.
  expect(model.rows.length).toBe(1 + 2 * PASSES + 1);
  expect(model.rows.slice(1, 5).map((r) => r.key)).toEqual(['a/1', 'b/1', 'a/2', 'b/2']);
  expect(model.rows.at(-1)?.key).toBe('end/1');
  const work = model.rows.filter((r) => r.stepId === 'a' || r.stepId === 'b');
  expect(work.length).toBe(2 * PASSES);
  expect(work.every((r) => r.bars.some((b) => b.kind === 'running' && b.outcome === 'succeeded'))).toBe(true);
  expect(model.endedMs).toBe(timeline.endedAtMs);
});

it('turns a missing run into an ApiError with the server\'s code', async () => {
  const client = new TimelineClient(TOKEN, serving.url);
  const error = await client.timeline('no-such-run').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 404, code: 'not-found' });
  await expect(client.events('no-such-run', 0)).rejects.toMatchObject({ code: 'not-found' });
});
