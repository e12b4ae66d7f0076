// `npm run bench -- app`: the speed a person feels (issue 21, point 10), end to end: the built
// bundle served by the real `weft serve`, Debian's chromium driven by Playwright, each figure from
// the navigation (page.goto) to the first painted frame in which the page is usable, in the
// page's own clock. The workflows list (the six examples), the run page of a 1,000-step run that
// failed at its last check, the editor on that 1,000-step workflow, and the time from the click
// that sends a Retry to the graph showing the new attempt. Setup (the workspaces, the runs) is
// made once and not timed. Targets: 300 ms, 1 s, 1 s and 200 ms (medians). Nothing is asserted
// on times; the bench fails only when a page never becomes usable. docs/bench-app.md says what
// "usable" is for each and how the rounds are made.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { exampleWorkspace, startServe, type Served, type Workspace } from '../e2e/weft-serve.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { ensureBuilt } from './editor-workspace.ts';
import { appWorkspace, FAILING_STEP, SMALL_STEPS, type AppRuns } from './app-workspace.ts';
import { armRetry, installAppProbe, lastClick, loadProfile, waitSeen, type LoadProfile, type Seen } from './app-probe.ts';

const ROUNDS = Number(process.env['WEFT_BENCH_APP_ROUNDS'] ?? 9);
/** A page that is not usable by then is reported as failed: it bounds a broken page, it is no target. */
const BOUND_MS = 60_000;
const VIEWPORT = { width: 1440, height: 900 };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const EXAMPLES = 6;

interface Figure {
  label: string;
  samples: number[];
  targetMs: number | null;
  /** What the table says when no round gave a sample because none can (a node out of view), instead of FAILED. */
  whenNone?: string;
}

interface Loaded {
  usable: Seen;
  profile: LoadProfile;
  /** CPU time of the page's renderer process from before the navigation to usable. */
  cpu: { processMs: number };
}

/** Chromium's own counters of the page's renderer (CDP Performance.getMetrics), in ms. */
async function cpuNow(page: Page): Promise<{ processMs: number }> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('Performance.enable');
    const { metrics } = await session.send('Performance.getMetrics');
    const of = (name: string): number => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    // ThreadTime is not the page's main thread here (it read 0 across a load): only ProcessTime is used.
    return { processMs: of('ProcessTime') };
  } finally {
    await session.detach();
  }
}

/**
 * A context whose HTTP cache holds the app as a returning user's does: one navigation to the
 * printed address (the token goes into the tab's session storage), not timed.
 */
async function returningTab(browser: Browser, served: Served, rows: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await installAppProbe(page, { rows, step: FAILING_STEP });
  await page.goto(served.address);
  await waitSeen(page, 'usable', BOUND_MS);
  return { context, page };
}

/** A fresh document at `url` (from about:blank, so never a same-document hash change), until usable. */
async function load(page: Page, url: string): Promise<Loaded> {
  await page.goto('about:blank');
  const before = await cpuNow(page);
  await page.goto(url, { waitUntil: 'commit' });
  const usable = await waitSeen(page, 'usable', BOUND_MS);
  const after = await cpuNow(page);
  return { usable, profile: await loadProfile(page), cpu: { processMs: after.processMs - before.processMs } };
}

const ms = (n: number): string => n.toFixed(0);
const size = (n: number): string => n.toLocaleString('en');
const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
/** Nearest-rank 90th percentile. */
const p90 = (xs: readonly number[]): number => sorted(xs)[Math.max(0, Math.ceil(xs.length * 0.9) - 1)] ?? 0;

function printFigures(figures: readonly Figure[], print: (line: string) => void): void {
  const rows: string[][] = [['figure', 'median ms', 'p90 ms', 'min ms', 'max ms', 'rounds', 'target', '']];
  for (const f of figures) {
    if (f.samples.length === 0) {
      rows.push([f.label, f.whenNone ?? 'FAILED', '', '', '', '0', f.targetMs === null ? '' : `<= ${size(f.targetMs)} ms`, f.targetMs === null ? '' : 'MISSED']);
      continue;
    }
    const m = median([...f.samples]);
    rows.push([
      f.label,
      ms(m),
      ms(p90(f.samples)),
      ms(Math.min(...f.samples)),
      ms(Math.max(...f.samples)),
      String(f.samples.length),
      f.targetMs === null ? '' : `<= ${size(f.targetMs)} ms`,
      f.targetMs === null ? '' : m <= f.targetMs ? 'met' : 'MISSED',
    ]);
  }
  for (const row of formatTable(rows)) print(row);
}

/** Medians, over the rounds, of where the time went before the page was usable. */
function printProfile(title: string, loads: readonly Loaded[], print: (line: string) => void): void {
  if (loads.length === 0) return;
  const rows: string[][] = [[title, 'median ms', 'min ms']];
  const add = (label: string, values: (number | undefined)[]): void => {
    const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
    if (known.length > 0) rows.push([label, ms(median([...known])), ms(Math.min(...known))]);
  };
  add('document received (index.html)', loads.map((l) => l.profile.documentEndMs));
  const scripts = new Map<string, number[]>();
  for (const l of loads) for (const s of l.profile.scripts) scripts.set(s.name.replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '.$1'), [...(scripts.get(s.name.replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '.$1')) ?? []), s.endMs]);
  for (const [name, ends] of scripts) add(`  ${name} received`, ends);
  add('DOMContentLoaded done', loads.map((l) => l.profile.domContentLoadedMs));
  const api = new Map<string, { start: number[]; end: number[]; bytes: number }>();
  for (const l of loads) {
    const firsts = new Map<string, { startMs: number; endMs: number; bytes: number }>();
    for (const a of l.profile.api) if (!firsts.has(a.route) && a.endMs <= l.usable.painted) firsts.set(a.route, a);
    for (const [route, a] of firsts) {
      const entry = api.get(route) ?? { start: [], end: [], bytes: a.bytes };
      entry.start.push(a.startMs);
      entry.end.push(a.endMs);
      api.set(route, entry);
    }
  }
  for (const [route, a] of [...api].sort((x, y) => median([...x[1].start]) - median([...y[1].start]))) {
    add(`  GET ${route} asked (${size(Math.round(a.bytes / 1000))} KB)`, a.start);
    add(`  GET ${route} answered`, a.end);
  }
  const names = new Set(loads.flatMap((l) => Object.keys(l.profile.seen)));
  for (const name of [...names].filter((n) => n !== 'usable').sort((x, y) => median(loads.map((l) => l.profile.seen[x]?.painted ?? Infinity)) - median(loads.map((l) => l.profile.seen[y]?.painted ?? Infinity)))) {
    add(`shown: ${name}`, loads.map((l) => l.profile.seen[name]?.painted));
  }
  add('usable (painted)', loads.map((l) => l.usable.painted));
  add('renderer process CPU to usable (all its threads)', loads.map((l) => l.cpu.processMs));
  add('long tasks before usable: count', loads.map((l) => l.profile.longTasks.filter((t) => t.startMs < l.usable.painted).length));
  add('long tasks before usable: total ms', loads.map((l) => l.profile.longTasks.filter((t) => t.startMs < l.usable.painted).reduce((s, t) => s + t.durationMs, 0)));
  add('longest task before usable ms', loads.map((l) => Math.max(0, ...l.profile.longTasks.filter((t) => t.startMs < l.usable.painted).map((t) => t.durationMs))));
  for (const row of formatTable(rows)) print(row);
}

/** Medians, over the small run's retries, of the requests made between the click and the new attempt shown. */
function printRetry(rounds: readonly RetryRound['requests'][], shown: readonly number[], print: (line: string) => void): void {
  if (rounds.length === 0) return;
  const rows: string[][] = [[`Retry (${SMALL_STEPS}-step run): where the time goes, from the click`, 'median ms', 'min ms', 'rounds']];
  const byRoute = new Map<string, { start: number[]; end: number[] }>();
  for (const round of rounds) {
    const seen = new Map<string, number>();
    for (const r of round) {
      const n = (seen.get(r.route) ?? 0) + 1;
      seen.set(r.route, n);
      const key = n === 1 ? r.route : `${r.route} (#${n})`;
      const e = byRoute.get(key) ?? { start: [], end: [] };
      e.start.push(r.startMs);
      e.end.push(r.endMs);
      byRoute.set(key, e);
    }
  }
  for (const [route, e] of [...byRoute].sort((a, b) => median([...a[1].start]) - median([...b[1].start]))) {
    rows.push([`  ${route.endsWith('/actions') ? 'POST' : 'GET'} ${route} asked`, ms(median([...e.start])), ms(Math.min(...e.start)), String(e.start.length)]);
    rows.push([`  ${route.endsWith('/actions') ? 'POST' : 'GET'} ${route} answered`, ms(median([...e.end])), ms(Math.min(...e.end)), String(e.end.length)]);
  }
  rows.push(['the graph shows the new attempt (painted)', ms(median([...shown])), ms(Math.min(...shown)), String(shown.length)]);
  for (const row of formatTable(rows)) print(row);
}

async function runState(served: Served, runId: string): Promise<{ state: string; attempts: number }> {
  const r = await fetch(`${served.url}/api/runs/${runId}`, { headers: { authorization: `Bearer ${served.token}` } });
  const body = (await r.json()) as { run: { state: string }; steps: { id: string; attemptCount?: number; attempts: unknown[] }[] };
  const step = body.steps.find((s) => s.id === FAILING_STEP);
  return { state: body.run.state, attempts: step?.attemptCount ?? step?.attempts.length ?? 0 };
}

/** Until the run has failed again after a retry (the next round starts from a failed run), bounded. */
async function failedAgain(served: Served, runId: string, attemptsBefore: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const s = await runState(served, runId);
    if (s.state === 'failed' && s.attempts > attemptsBefore) return;
    if (Date.now() - t0 > BOUND_MS) throw new Error(`app bench: run ${runId} is ${s.state} with ${s.attempts} attempts of ${FAILING_STEP}, ${BOUND_MS / 1000} s after the retry`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface RetryRound {
  graphMs: number | null;
  detailMs: number;
  dialogMs: number;
  /** The API requests after the click, from it: when each was asked and answered. */
  requests: { route: string; startMs: number; endMs: number }[];
}

/** On a fresh run page at its failing step: Retry, then the dialog's Retry; the new attempt timed from that click. */
async function retryOnce(page: Page, served: Served, runId: string): Promise<RetryRound> {
  await load(page, `${served.url}/#/run/${encodeURIComponent(runId)}`);
  const { attempts } = await runState(served, runId);
  const before = await armRetry(page, FAILING_STEP);
  const actions = page.getByTestId(`step-actions-${FAILING_STEP}`);
  await actions.getByTestId('action-retry').click();
  const opened = await lastClick(page);
  const dialog = page.getByTestId('dialog-retry');
  await dialog.waitFor({ state: 'visible', timeout: BOUND_MS });
  const dialogShown = (await page.evaluate('performance.now()')) as number;
  await dialog.getByTestId('submit-action').click();
  const sent = await lastClick(page);
  const detail = await waitSeen(page, 'retry-detail', BOUND_MS);
  const graph = before.graphAttempts === null ? null : await waitSeen(page, 'retry-graph', BOUND_MS);
  const shownAt = Math.max(detail.painted, graph?.painted ?? 0);
  const requests = (await loadProfile(page)).api.filter((a) => a.startMs >= sent && a.startMs <= shownAt).map((a) => ({ route: a.route, startMs: a.startMs - sent, endMs: a.endMs - sent }));
  await failedAgain(served, runId, attempts);
  return { graphMs: graph === null ? null : graph.painted - sent, detailMs: detail.painted - sent, dialogMs: dialogShown - opened, requests };
}

async function measureList(browser: Browser, print: (line: string) => void): Promise<{ figure: Figure; loads: Loaded[] }> {
  const ws: Workspace = exampleWorkspace();
  let served: Served | undefined;
  const figure: Figure = { label: `workflows list (${EXAMPLES} examples) usable`, samples: [], targetMs: 300 };
  const loads: Loaded[] = [];
  try {
    served = await startServe(ws);
    const { context, page } = await returningTab(browser, served, EXAMPLES);
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const l = await load(page, served.address);
        loads.push(l);
        figure.samples.push(l.usable.painted);
      }
    } finally {
      await context.close();
    }
  } catch (error) {
    print(`workflows list FAILED: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    await served?.stop();
    ws.remove();
  }
  return { figure, loads };
}

interface BigFigures {
  run: Figure;
  editor: Figure;
  retrySmall: Figure;
  retrySmallDetail: Figure;
  retryBig: Figure;
  retryBigGraph: Figure;
  dialog: Figure;
  /** The small run's rounds' requests, for where the retry's time goes. */
  retryRequests: RetryRound['requests'][];
  runLoads: Loaded[];
  editorLoads: Loaded[];
  failures: string[];
}

async function measureBig(browser: Browser, made: AppRuns, print: (line: string) => void): Promise<BigFigures> {
  const f: BigFigures = {
    run: { label: `run page of a ${size(made.steps)}-step run usable`, samples: [], targetMs: 1_000 },
    editor: { label: `editor on the ${size(made.steps)}-step workflow usable`, samples: [], targetMs: 1_000 },
    retrySmall: { label: `Retry -> the graph shows the new attempt (${SMALL_STEPS}-step run)`, samples: [], targetMs: 200 },
    retrySmallDetail: { label: '  same click -> the step detail shows it', samples: [], targetMs: null },
    retryBig: { label: `Retry -> the step detail shows it (${size(made.steps)}-step run)`, samples: [], targetMs: null },
    retryBigGraph: { label: `  same click -> the graph shows it (${size(made.steps)} steps)`, samples: [], targetMs: null, whenNone: 'n/a: off view' },
    dialog: { label: 'click on Retry -> its dialog shown (both runs)', samples: [], targetMs: null },
    retryRequests: [],
    runLoads: [],
    editorLoads: [],
    failures: [],
  };
  const served = await startServe(made.ws);
  try {
    const { context, page } = await returningTab(browser, served, 2).catch((error: unknown) => {
      throw new Error(`app bench: the app never showed the workflows list of the bench workspace: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    });
    const attempt = async (what: string, body: () => Promise<void>): Promise<void> => {
      try {
        await body();
      } catch (error) {
        const why = `${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        f.failures.push(why);
        print(`FAILED ${why}`);
      }
    };
    try {
      const runUrl = `${served.url}/#/run/${encodeURIComponent(made.failedRun)}`;
      const editorUrl = `${served.url}/#/workflow/${encodeURIComponent(made.workflowId)}`;
      // One untimed load of each page first: its lazy chunk into the cache, as a returning user has it.
      await attempt('run page', async () => {
        await load(page, runUrl);
        for (let i = 0; i < ROUNDS; i++) {
          const l = await load(page, runUrl);
          f.runLoads.push(l);
          f.run.samples.push(l.usable.painted);
        }
      });
      await attempt('editor', async () => {
        await load(page, editorUrl);
        for (let i = 0; i < ROUNDS; i++) {
          const l = await load(page, editorUrl);
          f.editorLoads.push(l);
          f.editor.samples.push(l.usable.painted);
        }
      });
      await attempt(`retry on the ${SMALL_STEPS}-step run`, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const r = await retryOnce(page, served, made.smallFailedRun);
          if (r.graphMs === null) throw new Error(`${FAILING_STEP} is not on the graph at the run page's opening zoom`);
          f.retrySmall.samples.push(r.graphMs);
          f.retryRequests.push(r.requests);
          f.retrySmallDetail.samples.push(r.detailMs);
          f.dialog.samples.push(r.dialogMs);
        }
      });
      await attempt(`retry on the ${size(made.steps)}-step run`, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const r = await retryOnce(page, served, made.failedRun);
          f.retryBig.samples.push(r.detailMs);
          if (r.graphMs !== null) f.retryBigGraph.samples.push(r.graphMs);
          f.dialog.samples.push(r.dialogMs);
        }
      });
    } finally {
      await context.close();
    }
  } finally {
    await served.stop();
  }
  return f;
}

export const benchmark: Benchmark = {
  name: 'app',
  description: 'the app as a person feels it, in chromium on the built bundle: workflows list, 1,000-step run page and editor, Retry to the new attempt',
  async run(print) {
    ensureBuilt(print);
    const setupStarted = performance.now();
    const made = appWorkspace();
    print(`setup (not timed): orders-1000 (${size(made.steps)} steps, ${size(made.edges)} edges, grid layout in the file) run by \`weft run\` to its end in ${made.madeInS.toFixed(1)} s, failed at ${FAILING_STEP};`);
    print(`a ${SMALL_STEPS}-step order-check run failed at the same check; the six examples in a second workspace. Setup took ${((performance.now() - setupStarted) / 1000).toFixed(1)} s.`);
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
      print(`chromium ${browser.version()}, headless, --disable-gpu (software raster), viewport ${VIEWPORT.width}x${VIEWPORT.height}; ${ROUNDS} rounds each`);
      print('(WEFT_BENCH_APP_ROUNDS), every round a fresh document loaded from about:blank in one tab whose HTTP cache holds the app from');
      print('an untimed first load (a returning user: assets revalidated, the token in the tab\'s session storage).');
      print('the machine is shared and busy (other work runs beside the bench): read the figures as rough, compare runs on one machine only.');
      print('');
      const list = await measureList(browser, print);
      const big = await measureBig(browser, made, print);
      printFigures([list.figure, big.run, big.editor, big.retrySmall, big.retrySmallDetail, big.retryBig, big.retryBigGraph, big.dialog], print);
      print('list, run page, editor: from the navigation\'s start (page.goto; the document\'s time origin) to the painted frame in which the');
      print('page is usable. Retry: from the click on the dialog\'s Retry (it sends the action) to the painted frame showing the new attempt.');
      if (big.retryBigGraph.samples.length === 0 && big.retryBig.samples.length > 0) print(`(${FAILING_STEP} of the ${size(made.steps)}-step run is out of view at the run page's opening zoom: its node is not in the DOM.)`);
      print('');
      printRetry(big.retryRequests, big.retrySmall.samples, print);
      print('');
      printProfile('workflows list: where the time goes', list.loads, print);
      print('');
      printProfile(`run page (${size(made.steps)} steps): where the time goes`, big.runLoads, print);
      print('');
      printProfile(`editor (${size(made.steps)} steps): where the time goes`, big.editorLoads, print);
      const failed = [...(list.figure.samples.length === 0 ? ['the workflows list'] : []), ...big.failures];
      if (failed.length > 0) throw new Error(`app bench: never usable: ${failed.join('; ')}`);
    } finally {
      await browser?.close();
      made.ws.remove();
    }
  },
};
