// `npm run bench -- editor`: the workflow editor in headless Chromium against the real `weft
// serve`, on generated 1,000- and 5,000-step workflows. Time to open (to the first full paint),
// with the file's layout and with elkjs laying it out; frames per second while panning and while
// dragging a node, at the zoom the editor opens at and at the zoom the editor's Fit gives for the
// whole workflow;
// time from a keystroke in an inspector field to the updated diagnostics.
// Targets (issue 12): open 1,000 steps within 1 s, 50+ fps at 1,000 steps, usable at 5,000;
// (issue 21) at the whole view, 50+ fps at 1,000 steps and 40+ at 5,000.
// No assertion on times; the bench fails (non-zero) only when the editor never opens.
import { chromium, type Browser, type Page } from '@playwright/test';
import { startServe, type Served } from '../e2e/weft-serve.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { installProbe, openEditor, startFrames, stopFrames, type FrameStats } from './editor-probe.ts';
import { dragNode, focusStepField, GESTURE_MS, fitWhole, keystroke, pan, type GestureResult } from './editor-gestures.ts';
import type { ViewState } from './editor-probe.ts';
import { ensureBuilt, generatedWorkspace, type BenchWorkflow } from './editor-workspace.ts';

const SIZES = [1_000, 5_000] as const;
const OPEN_REPS: Record<number, number> = { 1_000: 5, 5_000: 3 };
const GESTURE_REPS = 3;
const KEY_REPS = 5;
const OPEN_TIMEOUT_MS = 120_000;
const VIEWPORT = { width: 1440, height: 900 };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
/** Our reading of "usable at 5,000 steps", which the issue leaves open. */
const USABLE = { openMs: 5_000, fps: 20 };
/** Issue 21's targets for panning and dragging at the zoom that shows the whole workflow. */
const WHOLE_FPS: Record<number, number> = { 1_000: 50, 5_000: 40 };

interface Session {
  page: Page;
  close(): Promise<void>;
}

/** A fresh context (empty cache and storage) with the app open on its workflow list. */
async function appPage(browser: Browser, served: Served): Promise<Session> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await installProbe(page);
  await page.goto(served.address);
  await page.getByTestId('workflow-list').waitFor({ state: 'visible', timeout: 60_000 });
  return { page, close: () => context.close() };
}

const ms = (n: number): string => n.toFixed(0);
const verdict = (ok: boolean): string => (ok ? 'pass' : 'MISS');
const size = (n: number): string => n.toLocaleString('en');

/** Opens each workflow OPEN_REPS times and prints the table; returns the workflows that never opened, with why. */
async function measureOpen(browser: Browser, served: Served, workflows: readonly BenchWorkflow[], print: (line: string) => void): Promise<string[]> {
  const rows: string[][] = [['open to first full paint', 'steps', 'median ms', 'min ms', 'nodes drawn', 'target', '']];
  const failures: string[] = [];
  for (const w of workflows) {
    const samples: number[] = [];
    let rendered = 0;
    let failed: string | undefined;
    for (let rep = 0; rep < (OPEN_REPS[w.steps] ?? 3) && failed === undefined; rep++) {
      const session = await appPage(browser, served);
      try {
        const opened = await openEditor(session.page, w.id, OPEN_TIMEOUT_MS);
        samples.push(opened.ms);
        rendered = opened.rendered;
      } catch (error) {
        failed = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/^page\.evaluate: Error: /, '');
      } finally {
        await session.close();
      }
    }
    const small = w.steps <= 1_000;
    const label = w.layout === 'file' ? 'with the file layout' : 'auto layout (in a worker)';
    const target = small ? '<= 1,000 ms' : `usable (<= ${size(USABLE.openMs)} ms)`;
    if (failed !== undefined) {
      failures.push(`${w.id}: ${failed}`);
      rows.push([label, size(w.steps), 'FAILED', '', '', target, 'MISS']);
      continue;
    }
    const m = median([...samples]);
    rows.push([label, size(w.steps), ms(m), ms(Math.min(...samples)), String(rendered), target, verdict(m <= (small ? 1_000 : USABLE.openMs))]);
  }
  for (const row of formatTable(rows)) print(row);
  print(`medians of ${OPEN_REPS[1_000]} (1,000 steps) and ${OPEN_REPS[5_000]} (5,000) opens, each in a fresh browser context: from setting #/workflow/ID on the open app`);
  print('(the definition is fetched and validated by the server, laid out, drawn) to the frame after the fitted nodes are visible.');
  for (const f of failures) print(`FAILED to open ${f}`);
  return failures;
}

interface Interaction {
  steps: number;
  idle: FrameStats;
  pan: GestureResult[];
  drag: GestureResult[];
  /** The same gestures at the zoom that shows the whole workflow. */
  whole: { view: ViewState; pan: GestureResult[]; drag: GestureResult[] };
  keys: { field: string; results: Awaited<ReturnType<typeof keystroke>>[] } | { skipped: string };
}

/** The page's frame rate with no input: what the machine gives the page right now. */
async function idleFrames(page: Page): Promise<FrameStats> {
  await startFrames(page);
  await new Promise((r) => setTimeout(r, GESTURE_MS));
  return stopFrames(page);
}

async function measureInteraction(browser: Browser, served: Served, w: BenchWorkflow): Promise<Interaction> {
  const session = await appPage(browser, served);
  try {
    const { page } = session;
    await openEditor(page, w.id, OPEN_TIMEOUT_MS);
    const idle = await idleFrames(page);
    const opening = { pan: [] as GestureResult[], drag: [] as GestureResult[] };
    for (let rep = 0; rep < GESTURE_REPS; rep++) {
      opening.pan.push(await pan(page));
      opening.drag.push(await dragNode(page));
    }
    const whole = { view: await fitWhole(page), pan: [] as GestureResult[], drag: [] as GestureResult[] };
    for (let rep = 0; rep < GESTURE_REPS; rep++) {
      whole.pan.push(await pan(page));
      whole.drag.push(await dragNode(page));
    }
    const result: Interaction = { steps: w.steps, idle, ...opening, whole, keys: { skipped: 'not measured' } };
    const setup = await focusStepField(page);
    if (!setup.ok) return { ...result, keys: { skipped: setup.why } };
    const results = [];
    for (let rep = 0; rep < KEY_REPS; rep++) results.push(await keystroke(page, 'abcdefghij'[rep] ?? 'x'));
    return { ...result, keys: { field: setup.field, results } };
  } finally {
    await session.close();
  }
}

function frameRow(label: string, steps: number, samples: readonly FrameStats[], moves: readonly number[] | undefined, atWhole = false): string[] {
  const fps = median(samples.map((s) => s.fps));
  const whole = WHOLE_FPS[steps];
  const target =
    moves === undefined
      ? undefined
      : atWhole && whole !== undefined
        ? { text: `>= ${whole} fps`, ok: fps >= whole }
        : steps <= 1_000
          ? { text: '>= 50 fps', ok: fps >= 50 }
          : { text: `usable (>= ${USABLE.fps} fps)`, ok: fps >= USABLE.fps };
  const perMove = moves === undefined ? '' : median(samples.map((s, i) => s.nodeMounts / Math.max(1, moves[i] ?? 1))).toFixed(1);
  return [
    label,
    size(steps),
    fps.toFixed(1),
    ms(median(samples.map((s) => s.longestMs))),
    ms(median(samples.map((s) => s.dropped))),
    moves === undefined ? '' : ms(median([...moves]) / (GESTURE_MS / 1000)),
    perMove,
    target?.text ?? '',
    target === undefined ? '' : verdict(target.ok),
  ];
}

function printInteractions(all: readonly Interaction[], print: (line: string) => void): void {
  const rows: string[][] = [['while', 'steps', 'fps', 'longest frame ms', 'dropped frames', 'mouse moves/s', 'node mounts/move', 'target', '']];
  for (const i of all) {
    rows.push(frameRow('idle (no input)', i.steps, [i.idle], undefined));
    rows.push(frameRow('panning the pane', i.steps, i.pan.map((g) => g.frames), i.pan.map((g) => g.moves)));
    rows.push(frameRow('dragging a node', i.steps, i.drag.map((g) => g.frames), i.drag.map((g) => g.moves)));
    const drawn = i.whole.view.far ? `${size(i.whole.view.rendered)} nodes on the far canvas, ${size(i.whole.view.elements)} node elements` : `${size(i.whole.view.rendered)} nodes drawn`;
    const at = `at the whole view (Fit: zoom ${i.whole.view.zoom.toFixed(4)}, ${drawn})`;
    rows.push(frameRow(`panning ${at}`, i.steps, i.whole.pan.map((g) => g.frames), i.whole.pan.map((g) => g.moves), true));
    rows.push(frameRow(`dragging a node ${at}`, i.steps, i.whole.drag.map((g) => g.frames), i.whole.drag.map((g) => g.moves), true));
  }
  for (const row of formatTable(rows)) print(row);
  print(`medians of ${GESTURE_REPS} gestures of ${GESTURE_MS / 1000} s each (two laps of an ellipse), on the workflow with its file layout,`);
  print('first at the zoom the editor opens at, then at the whole view: the zoom the editor\'s own Fit (toolbar "fit view", F) gives');
  print('for the whole workflow (the row says which zoom, and whether the far level\'s canvas drew the nodes instead of node elements);');
  print('fps counts requestAnimationFrame callbacks; dropped frames are 60 Hz frames not shown (gaps over 16.7 ms); mouse moves/s are');
  print('the input events the page took (each is sent once the page has taken the last); node mounts/move counts node elements React');
  print('Flow added per move (nodes coming into view while panning; while dragging one node it should stay near 0).');
  print('');
  const keyRows: string[][] = [['keystroke in the inspector', 'steps', 'to diagnostics ms', 'validator ms', 'round trip ms', 'longest frame ms', 'dropped frames']];
  const notes: string[] = [];
  for (const i of all) {
    if ('skipped' in i.keys) {
      notes.push(`skipped at ${size(i.steps)} steps: ${i.keys.skipped}`);
      continue;
    }
    const r = i.keys.results;
    const opt = (xs: (number | null)[]): string => {
      const known = xs.filter((x): x is number => x !== null);
      return known.length === 0 ? 'n/a' : median(known).toFixed(1);
    };
    keyRows.push([
      i.keys.field,
      size(i.steps),
      ms(median(r.map((x) => x.ms))),
      opt(r.map((x) => x.lastMs)),
      opt(r.map((x) => x.lastRoundTripMs)),
      ms(median(r.map((x) => x.frames.longestMs))),
      ms(median(r.map((x) => x.frames.dropped))),
    ]);
  }
  if (keyRows.length > 1) {
    for (const row of formatTable(keyRows)) print(row);
    print(`medians of ${KEY_REPS} keystrokes: from the keydown to the frame where __weftValidation.runs has grown and nothing is pending`);
    print('(includes the editor\'s debounce before it validates); validator ms is the worker\'s own time (lastMs). No target is set for it.');
  }
  for (const note of notes) print(`keystroke -> diagnostics: ${note}`);
}

export const benchmark: Benchmark = {
  name: 'editor',
  description: 'the workflow editor in headless chromium: open, pan and drag fps, keystroke to diagnostics (1,000 and 5,000 steps)',
  async run(print) {
    ensureBuilt(print);
    const { ws, workflows } = generatedWorkspace(SIZES);
    let served: Served | undefined;
    let browser: Browser | undefined;
    try {
      served = await startServe(ws);
      browser = await chromium.launch({ executablePath: process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
      print(`chromium ${browser.version()}, headless, --disable-gpu (software raster), viewport ${VIEWPORT.width}x${VIEWPORT.height}`);
      print('the machine is shared and noisy (other work runs beside the bench): read the figures as rough, compare runs on one machine only.');
      print(workflows.map((w) => `${w.id}: ${size(w.steps)} steps, ${size(w.edges)} edges, ${w.layout === 'file' ? 'grid layout in the file' : 'no layout'}`).join('; '));
      print('');
      const failures = await measureOpen(browser, served, workflows, print);
      print('');
      const interactions: Interaction[] = [];
      const failed = (w: BenchWorkflow): boolean => failures.some((f) => f.startsWith(`${w.id}:`));
      for (const w of workflows.filter((x) => x.layout === 'file' && !failed(x))) interactions.push(await measureInteraction(browser, served, w));
      printInteractions(interactions, print);
      // After the report, so one workflow that never opens still leaves every other figure printed.
      if (failures.length > 0) throw new Error(`editor bench: the editor never opened ${failures.join('; ')}`);
    } finally {
      await browser?.close();
      await served?.stop();
      ws.remove();
    }
  },
};
