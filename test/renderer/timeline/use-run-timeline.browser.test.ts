// useRunTimeline and <Timeline> in chromium against the real server over a real store: a run that
// waits for an event is drawn as it stands (its wait open, the view live), and when the event
// arrives and the run's last seq moves on, the hook pages the new events and the view shows the
// rest of the run and the event's marker. The page is served at the server's origin, as the app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { bundleHarness, launchChromium, newHarnessPage } from '../browser-harness.ts';
import { waitUntil } from '../../wait-until.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type Serving } from '../../../engine/server/serve.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

const HARNESS = String.raw`
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TimelineClient } from './renderer/api/timeline-client.ts';
import { useRunTimeline } from './renderer/runs/timeline/use-run-timeline.ts';
import { Timeline } from './renderer/runs/timeline/timeline.tsx';

const client = new TimelineClient(new URLSearchParams(location.search).get('token'));
const runId = new URLSearchParams(location.search).get('run');

function App() {
  const [lastSeq, setLastSeq] = useState(null);
  window.harness = { setLastSeq };
  const { model, live, pagingEvents, error } = useRunTimeline(runId, client, lastSeq);
  if (error !== null) return <div data-testid="error">{error}</div>;
  if (model === null) return <div>loading</div>;
  return (
    <div style={{ height: '100vh' }} data-live={String(live)} data-paging={String(pagingEvents)} data-testid="state">
      <Timeline model={model} selected={null} onSelect={() => {}} nowMs={model.asOfMs} live={live} />
    </div>
  );
}
createRoot(document.getElementById('root')).render(<QueryClientProvider client={new QueryClient()}><App /></QueryClientProvider>);
`;

const flow = {
  format: 'weft/v1',
  id: 'paid',
  version: 1,
  name: 'Wait for payment',
  steps: [
    { id: 'prepare', kind: 'transform', config: { expression: 'input.order' } },
    { id: 'payment', kind: 'event', config: { name: 'payment.received', correlationKey: 'input.order' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'prepare', to: 'payment' },
    { id: 'e2', from: 'payment', to: 'done' },
  ],
};

let root = '';
let serving: Serving;
let browser: Browser;
let page: Page;
let runId = '';

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${serving.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

const runOf = async (): Promise<{ state: string; lastSeq: number }> => ((await api('GET', `/api/runs/${runId}`)) as { run: { state: string; lastSeq: number } }).run;

const until = waitUntil;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-timeline-live-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'paid.weft.json'), JSON.stringify(flow));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'ana' };
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env });
  const started = await api('POST', '/api/runs', { workflow: 'paid', input: { order: 'o-7' } });
  runId = (started as { runId: string }).runId;
  if (typeof runId !== 'string') throw new Error(`the run did not start: ${JSON.stringify(started)}`);
  await until(async () => (await runOf()).state === 'waiting', 'the run waits for its payment');

  const files = await bundleHarness(HARNESS, 'live-harness.tsx', { bodyStyle: 'margin:0', base: '/__t' });
  browser = await launchChromium();
  page = await newHarnessPage(browser, { viewport: { width: 900, height: 400 } });
  // Only the harness's files are answered here; the API calls reach the real server.
  await page.route(`${serving.url}/__t/**`, (route) => {
    const file = files.get(new URL(route.request().url()).pathname);
    return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
});

afterAll(async () => {
  await browser?.close();
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

const keys = (p: Page): Promise<string[]> => p.evaluate(`[...document.querySelectorAll('[data-testid="timeline-row"]')].map((e) => e.getAttribute('data-step') + '/' + e.getAttribute('data-activation'))`);

it('draws a waiting run live, then pages what follows when its last seq moves on', async () => {
  await page.goto(`${serving.url}/__t/index.html?token=${TOKEN}&run=${runId}`);
  const state = page.getByTestId('state');
  await expect.poll(() => state.getAttribute('data-paging')).toBe('false');
  expect(await state.getAttribute('data-live')).toBe('true');
  expect(await keys(page)).toEqual(['/', 'prepare/1', 'payment/1']);
  expect(await page.locator('[data-step="payment"] [data-kind="waiting_event"]').getAttribute('data-outcome')).toBe('open');
  expect(await page.getByTestId('timeline-marker').count()).toBe(0);

  await api('POST', '/api/events', { name: 'payment.received', key: 'o-7', data: { amount: 5 } });
  await until(async () => (await runOf()).state === 'succeeded', 'the run succeeds');
  // Nothing new is read until the hook is told the log grew.
  expect(await keys(page)).toEqual(['/', 'prepare/1', 'payment/1']);
  const { lastSeq } = await runOf();
  await page.evaluate(`window.harness.setLastSeq(${lastSeq})`);
  await expect.poll(() => state.getAttribute('data-live')).toBe('false');
  expect(await keys(page)).toEqual(['/', 'prepare/1', 'payment/1', 'done/1']);
  expect(await page.locator('[data-step="payment"] [data-kind="waiting_event"]').getAttribute('data-outcome')).toBe('succeeded');
  expect(await page.locator('[data-testid="timeline-marker"][data-kind="event"]').count()).toBe(1);
  expect(await page.getByTestId('error').count()).toBe(0);
});
