// Work that happened is never shown as skipped (issue 19, items 1 and 7), in Debian's chromium
// against the real `weft serve` on a copy of examples/:
// - a record-update run whose records API answered 500 to every write failed at write_failed;
//   once the API is fixed, Retry on `write` in the app finishes the run: write_failed is drawn
//   passed over (still reached, with the reason), notify_intent and done succeed, and the records
//   API applied exactly one PUT; the timeline says what the retry re-decided, and time travel to
//   that moment shows write_failed superseded;
// - a draft loop (test/fixtures/scenarios/draft-loop.weft.json) rejected once and approved the
//   second time: `revise`, which ran in pass 1, shows succeeded and passed over, never skipped;
// - a trip-saga run that compensated: each booking's evidence says which step undid its effect.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exampleWorkspace, listenLoopback, type Loopback, openRunFromList, REPO_ROOT, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';

interface FakeApi {
  url: string;
  close(): Promise<void>;
  requests: { method: string; path: string; status: number; replayed: boolean }[];
}

let ws: Workspace;
let served: Served;
let api: FakeApi;

// The graph fits a whole workflow, so a node is small on screen: twice the pixels, so the node
// shots below show its chips legibly.
test.use({ deviceScaleFactor: 2 });

/** One node and the marks on its border, in both themes (test-results/screenshots/NAME-THEME.png), then back to light. */
async function shootNode(page: Page, node: Locator, name: string): Promise<void> {
  const box = await node.boundingBox();
  expect(box).not.toBeNull();
  if (box === null) return;
  const clip = { x: box.x - 16, y: box.y - 24, width: box.width + 32, height: box.height + 40 };
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(`document.documentElement.dataset.theme = '${theme}'`);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, clip, animations: 'disabled' });
  }
  await page.evaluate(`document.documentElement.dataset.theme = 'light'`);
}

test.beforeAll(async () => {
  ws = exampleWorkspace();
  // record-update as shipped, with its retry waits shortened: the failing write's three attempts
  // need not wait seconds of backoff.
  const file = join(ws.dir, 'record-update.weft.json');
  const wf = JSON.parse(readFileSync(file, 'utf8')) as { steps: { retry?: Record<string, number> }[] };
  for (const s of wf.steps) if (s.retry !== undefined) Object.assign(s.retry, { initialIntervalMs: 50, maxIntervalMs: 100, jitter: 0 });
  writeFileSync(file, JSON.stringify(wf, null, 2));
  // The draft loop of the engine's scenario, with its two commands made real programs.
  const loop = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/scenarios/draft-loop.weft.json'), 'utf8')) as { steps: { id: string; config?: unknown }[] };
  const program = (text: string) => ({ argv: [process.execPath, '-e', `process.stdout.write(JSON.stringify({ text: ${JSON.stringify(text)} }))`] });
  for (const s of loop.steps) {
    if (s.id === 'draft') s.config = program('v1');
    if (s.id === 'revise') s.config = program('v2');
  }
  writeFileSync(join(ws.dir, 'draft-loop.weft.json'), JSON.stringify(loop, null, 2));
  served = await startServe(ws);
  const module = (await import(pathToFileURL(join(REPO_ROOT, 'examples/fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<FakeApi> };
  api = await module.startFakeApi(0);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

interface EventRecord {
  seq: number;
  type: string;
  step: string | null;
  reason: string | null;
}

async function events(runId: string): Promise<EventRecord[]> {
  const response = await fetch(`${served.url}/api/runs/${runId}/events?after=0&limit=1000`, { headers: { authorization: `Bearer ${served.token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: EventRecord[] }).events;
}

async function cli(args: string[], code: number): Promise<string> {
  const r = await weft(ws, args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(code);
  return r.stdout;
}


/**
 * The records API behind a proxy on 127.0.0.1 that answers 500 to every PUT while `failing`, as a
 * records store that is down does; everything else (and every PUT once fixed) reaches the API.
 */
async function recordsProxy(): Promise<Loopback & { fix(): void }> {
  let failing = true;
  const server = await listenLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT' && failing) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal","message":"the records store is down"}');
        return;
      }
      const target = new URL(req.url ?? '/', api.url);
      const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      });
      out.end(Buffer.concat(chunks));
    });
  });
  return {
    ...server,
    fix() {
      failing = false;
    },
  };
}

/** Two boxes overlap (by more than a hair: borders may touch). */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

/** The node's passed-over (or superseded) chip is visible and covers none of the node's other text. */
async function expectChipClear(node: Locator, chip: Locator): Promise<void> {
  await expect(chip).toBeVisible();
  const box = await chip.boundingBox();
  expect(box).not.toBeNull();
  if (box === null) return;
  const others: [string, Locator][] = [
    ['name', node.locator('.step-node-name')],
    ['id', node.locator('.step-node-sub > *').first()],
    ['state', node.locator('.node-state')],
  ];
  for (const [what, other] of others) {
    // A node drawn compact (semantic zoom, renderer/graph/semantic-zoom.ts) has no id line.
    if (what === 'id' && (await other.count()) === 0) continue;
    const b = await other.boundingBox();
    expect(b).not.toBeNull();
    if (b !== null) expect(overlaps(box, b), `the chip ${JSON.stringify(box)} overlaps the node's ${what} ${JSON.stringify(b)}`).toBe(false);
  }
  // Inside the node's width: nothing clipped at its sides.
  const n = await node.boundingBox();
  expect(n).not.toBeNull();
  if (n !== null) {
    expect(box.x).toBeGreaterThanOrEqual(n.x);
    expect(box.x + box.width).toBeLessThanOrEqual(n.x + n.width);
  }
}

test('a run that failed at write_failed because the records API answered 500 is retried from the app once the API is fixed: it succeeds, write_failed is passed over, and one PUT was applied', async ({ page }) => {
  test.setTimeout(120_000);
  const proxy = await recordsProxy();
  try {
    const input = { apiBase: proxy.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' };
    const { runId, state } = JSON.parse(await cli(['run', 'record-update.weft.json', '--input', JSON.stringify(input), '--json'], 1)) as { runId: string; state: string };
    expect(state).toBe('failed');
    const applied = () => api.requests.filter((r) => r.method === 'PUT' && r.path === '/records/A17' && r.status === 200 && !r.replayed).length;
    expect(applied()).toBe(0);

    // The failed run opens at the write, failed after three attempts; the run ended at write_failed.
    await openRunFromList(page, served, runId);
    await expect(page.getByTestId('run-state')).toHaveText('failed');
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write');
    await expect(page.getByTestId('step-state-write')).toHaveText('failed ×3');
    await expect(page.getByTestId('step-state-write_failed')).toHaveText('succeeded');
    await expect(page.getByTestId('step-passed-over-write_failed')).toHaveCount(0);

    // The records API is fixed; Retry on write, confirmed (it has an external effect).
    proxy.fix();
    await page.getByTestId('action-retry').click();
    const dialog = page.getByTestId('dialog-retry');
    await dialog.getByTestId('action-by').fill('ops-kim');
    await dialog.getByTestId('action-reason').fill('the records API is fixed');
    await dialog.getByTestId('submit-action').click();
    await dialog.getByTestId('confirm-action').click();
    await expect(dialog).toHaveCount(0);

    // The run goes on from the write's new outcome and succeeds.
    await expect(page.getByTestId('run-state')).toHaveText('succeeded', { timeout: 30_000 });
    await expect(page.getByTestId('step-state-write')).toHaveText('succeeded ×4');
    await expect(page.getByTestId('step-state-verify')).toHaveText('succeeded');
    await expect(page.getByTestId('step-state-notify_intent')).toHaveText('succeeded');
    await expect(page.getByTestId('step-state-done')).toHaveText('succeeded');
    for (const id of ['write', 'verify', 'notify_intent', 'done']) {
      await expect(page.getByTestId(`step-node-${id}`)).not.toHaveAttribute('data-path', /.*/);
      await expect(page.getByTestId(`step-passed-over-${id}`)).toHaveCount(0);
    }
    expect(applied()).toBe(1);

    // write_failed was reached on the old path: it still says so, drawn off the path, with why.
    const endNode = page.getByTestId('step-node-write_failed');
    const chip = page.getByTestId('step-passed-over-write_failed');
    await expect(page.getByTestId('step-state-write_failed')).toHaveText('succeeded');
    await expect(endNode).toHaveAttribute('data-path', 'passed-over');
    await expect(chip).toHaveText('passed over');
    await expect(chip).toHaveAttribute('title', /^passed over: reached in activation 1, then no edge into it is taken any more .*; it does not end the run$/);
    await expect(endNode).not.toContainText('skipped');
    await expectChipClear(endNode, chip);
    // The edge into it is not taken now, like any other edge not taken.
    await expect(page.locator('path.outcome-edge#write_failed_to_end')).toHaveAttribute('data-taken', 'false');
    await expect(page.locator('path.outcome-edge#write_to_verify')).toHaveAttribute('data-taken', 'true');

    // Its detail and the restart record say what it did and why it no longer counts.
    await endNode.click();
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'write_failed');
    await expect(page.getByTestId('step-path-note')).toHaveAttribute('data-path', 'passed-over');
    await expect(page.getByTestId('step-path-note')).toContainText('Passed over');
    await expect(page.getByTestId('step-path-note')).toContainText('no edge into it is taken any more');
    await expect(page.getByTestId('step-path-note')).toContainText('after the retry of "write" by ops-kim');
    await page.getByTestId('run-tab-record').click();
    const row = page.getByTestId('record-step-write_failed');
    await expect(row).toHaveAttribute('data-path', 'passed-over');
    await expect(row.getByTestId('record-passed-over-write_failed')).toHaveText('passed over');
    await expect(row).toContainText('passed over: reached in activation 1, then no edge into it is taken any more');
    await expect(page.getByTestId('record-passed-over-done')).toHaveCount(0);
    await row.scrollIntoViewIfNeeded();
    await shootBothThemes(page, 'run-passed-over-record', { 'write_failed row': row });

    // The timeline says what the retry re-decided, and that write_failed was passed over.
    const log = await events(runId);
    const reopened = log.find((e) => e.type === 'path_reopened');
    expect(reopened?.step).toBe('write');
    const reopenedMarker = page.locator('[data-testid="timeline-marker"][data-kind="reopened"]');
    await expect(reopenedMarker).toHaveCount(1);
    await expect(reopenedMarker).toHaveAttribute('aria-label', /^retry of "write" by ops-kim: what followed its earlier outcome is decided again; superseded: write_failed \(end step reached in activation 1\)/);
    const passedMarker = page.locator('[data-testid="timeline-marker"][data-kind="passed_over"]');
    await expect(passedMarker).toHaveCount(1);
    await expect(passedMarker).toHaveAttribute('aria-label', /^write_failed passed over: no edge into it is taken any more/);
    await expect(page.locator('[data-testid="timeline-row"][data-step="write_failed"]').locator('[data-kind="passed_over"]')).toHaveCount(1);
    await expect(page.getByTestId('timeline-legend')).toContainText('path re-decided');
    await expect(page.getByTestId('timeline-legend')).toContainText('passed over');

    await page.getByTestId('step-node-write_failed').click();
    await shootBothThemes(page, 'run-passed-over', { 'write_failed node': endNode, 'path note': page.getByTestId('step-path-note') });
    await shootNode(page, endNode, 'run-passed-over-node');

    // As of the re-decision (before the write ran again), write_failed is superseded, not yet passed over.
    await page.getByTestId('tt-slider').fill(String(reopened?.seq));
    await expect(page.getByTestId('tt-where')).toContainText(`as of event ${reopened?.seq}`);
    const superseded = page.getByTestId('step-superseded-write_failed');
    await expect(superseded).toHaveText('superseded');
    await expect(superseded).toHaveAttribute('title', /^superseded: reached in activation 1; the retry of "write" by ops-kim re-decides what led to it/);
    await expect(endNode).toHaveAttribute('data-path', 'superseded');
    await expect(page.getByTestId('step-passed-over-write_failed')).toHaveCount(0);
    await expectChipClear(endNode, superseded);
    await shootNode(page, endNode, 'run-superseded-node');
    await page.getByTestId('tt-live').click();
    await expect(page.getByTestId('step-passed-over-write_failed')).toBeVisible();
  } finally {
    await proxy.close();
  }
});

test('after a loop, a step that ran in the first pass and was not activated in the second shows what it did and that it was passed over, never skipped', async ({ page }) => {
  const { runId } = JSON.parse(await cli(['run', 'draft-loop.weft.json', '--json'], 3)) as { runId: string };
  await cli(['reject', runId, 'review', '--reason', 'too short'], 3);
  await cli(['approve', runId, 'review'], 0);

  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
  await expect(page.getByTestId('step-state-publish')).toHaveText('succeeded');
  // revise ran in pass 1 (its output is on record) and no edge led to it in pass 2.
  const node = page.getByTestId('step-node-revise');
  await expect(page.getByTestId('step-state-revise')).toHaveText('succeeded');
  await expect(node).toHaveAttribute('data-path', 'passed-over');
  await expect(node).not.toContainText('skipped');
  const chip = page.getByTestId('step-passed-over-revise');
  await expect(chip).toHaveAttribute('title', /^passed over: succeeded in activation 1, then no edge into it is taken any more/);
  await expectChipClear(node, chip);
  await shootNode(page, node, 'run-loop-passed-over-node');
  // Its loop edge back to review is decided not taken now; review and publish are on the path.
  await expect(page.locator('path.outcome-edge#revised')).toHaveAttribute('data-taken', 'false');
  await expect(page.locator('path.outcome-edge#approved')).toHaveAttribute('data-taken', 'true');
  for (const id of ['draft', 'review', 'publish']) await expect(page.getByTestId(`step-passed-over-${id}`)).toHaveCount(0);
  // abandoned never ran: that one is skipped, and says nothing of a pass-over.
  await expect(page.getByTestId('step-state-abandoned')).toHaveText('skipped');
  await expect(page.getByTestId('step-passed-over-abandoned')).toHaveCount(0);

  await node.click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'revise');
  await expect(page.getByTestId('step-path-note')).toContainText('Passed over');
  await expect(page.getByTestId('attempt-output')).toContainText('v2');
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-revise')).toContainText('passed over: succeeded in activation 1');
  await expect(page.locator('[data-testid="timeline-row"][data-step="revise"]').locator('[data-kind="passed_over"]')).toHaveCount(1);
});

test('a compensated booking says which step undid its effect, in the step detail and the restart record', async ({ page }) => {
  const trip = { apiBase: api.url, tripId: 'T-OFFSET', traveller: { name: 'Ada Lovelace', email: 'ada@example.com' }, flight: { from: 'LHR', to: 'LIS', date: '2026-05-14' }, hotel: { city: 'Lisbon', checkIn: '2026-05-14', checkOut: '2026-05-18' }, car: { pickUp: 'LIS', from: '2026-05-14', until: '2026-05-10' } };
  const { runId } = JSON.parse(await cli(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip), '--json'], 1)) as { runId: string };
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-book_flight')).toHaveText('compensated');
  await page.getByTestId('step-node-book_flight').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'book_flight');
  await expect(page.getByTestId('attempt-evidence')).toContainText('its effect was undone by cancel_flight');
  await page.getByTestId('run-tab-record').click();
  await expect(page.getByTestId('record-step-book_flight')).toContainText('its effect was undone by cancel_flight');
  await expect(page.getByTestId('record-step-book_hotel')).toContainText('its effect was undone by cancel_hotel');
  await expect(page.getByTestId('record-step-book_car')).not.toContainText('undone');
});
