// What the graph draws, read as a person sees it (issue 21, points 1, 2 and 4), for the six
// examples in the editor, on a run page and in insights, at the view each page opens with: every
// step's title at 11 px or more on screen (the font size times the canvas's zoom), every edge
// label clear of nodes and of other labels, its words uncut and clickable at its centre; and, in
// the dark theme, skipped (and never reached) steps and edges not taken still dashed but with contrast against the
// canvas (3:1 for strokes, 4.5:1 for text). One run of each example is started from a terminal,
// with its first scenario's input against examples/fake-api.mjs.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, REPO_ROOT, setTheme, startFakeApi, startServe, weft, type FakeApi, type Served, type Workspace } from './weft-serve.ts';

const EXAMPLES = ['agent-escalation', 'order-payment', 'parallel-research', 'record-update', 'research-review', 'trip-saga'];
const MIN_TITLE_PX = 11;

let ws: Workspace;
let served: Served;
let api: FakeApi;
const runs: Record<string, string> = {};

const stepCount = (id: string): number => (JSON.parse(readFileSync(join(REPO_ROOT, 'examples', `${id}.weft.json`), 'utf8')) as { steps: unknown[] }).steps.length;

/** The example's first scenario's input, its API pointed at the fake API. */
function scenarioInput(id: string): Record<string, unknown> {
  const file = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', `${id}.scenarios.json`), 'utf8')) as { scenarios: { input: Record<string, unknown> }[] };
  const input = { ...file.scenarios[0]?.input };
  if ('apiBase' in input) input['apiBase'] = api.url;
  return input;
}

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
  api = await startFakeApi();
  for (const id of EXAMPLES) {
    const r = await weft(ws, ['run', `${id}.weft.json`, '--input', JSON.stringify(scenarioInput(id)), '--json']);
    expect([0, 1, 3], `${id}: ${r.stderr}`).toContain(r.code);
    runs[id] = (JSON.parse(r.stdout) as { runId: string }).runId;
  }
  // A booked trip waits for the traveller to confirm its price; confirmed, it ends, and the paths it did not take show skipped.
  const confirmed = await weft(ws, ['approve', runs['trip-saga'] ?? '', 'traveller_confirms']);
  expect(confirmed.code, confirmed.stderr).toBe(0);
});

test.afterAll(async () => {
  await served?.stop();
  await api?.close();
  ws?.remove();
});

type Where = 'editor' | 'run page' | 'insights';

async function open(page: Page, where: Where, id: string): Promise<void> {
  const hash = where === 'editor' ? `#/workflow/${id}` : where === 'run page' ? `#/run/${runs[id] ?? ''}` : `#/insights/${id}`;
  if (!page.url().startsWith(served.url)) await page.goto(served.address);
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  const canvas = page.getByTestId(where === 'editor' ? 'editor-canvas' : 'workflow-graph');
  await expect(canvas.locator('.react-flow__node')).toHaveCount(stepCount(id));
  await settled(page);
}

/**
 * Waits until the canvas stops moving: the viewport's transform and every title's font size the
 * same over two frames (the fit, then the zoom-dependent styles, may each take a frame).
 */
async function settled(page: Page): Promise<void> {
  const snapshot = `(() => {
    const vp = document.querySelector('.react-flow__viewport');
    const sizes = [...document.querySelectorAll('.step-node-name')].map((e) => getComputedStyle(e).fontSize).join(',');
    return (vp ? getComputedStyle(vp).transform : 'none') + '|' + sizes;
  })()`;
  await expect
    .poll(async () => {
      const a = await page.evaluate<string>(snapshot);
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      const b = await page.evaluate<string>(snapshot);
      return a === b && !a.startsWith('none');
    })
    .toBe(true);
}

/** Each node's title as drawn: its font size times the viewport's scale, "id: 6.2 px" for those under the minimum (or not shown). */
function smallTitles(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const vp = document.querySelector('.react-flow__viewport');
    const scale = new DOMMatrix(getComputedStyle(vp).transform).a;
    const out = [];
    for (const node of document.querySelectorAll('.react-flow__node')) {
      const id = node.getAttribute('data-id');
      const title = node.querySelector('.step-node-name');
      if (!title || title.getClientRects().length === 0 || title.textContent.trim() === '' || getComputedStyle(title).visibility !== 'visible') { out.push(id + ': no title shown'); continue; }
      const px = parseFloat(getComputedStyle(title).fontSize) * scale;
      if (px < ${MIN_TITLE_PX}) out.push(id + ': ' + px.toFixed(1) + ' px');
    }
    return out;
  })()`);
}

/** Edge labels that cover a node or another label, cut their words, or cannot be clicked at their centre. */
function labelProblems(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const pane = document.querySelector('.react-flow').getBoundingClientRect();
    const hit = (a, b) => a.left < b.right - 0.5 && a.right > b.left + 0.5 && a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5;
    const nodes = [...document.querySelectorAll('.react-flow__node')].map((n) => [n.getAttribute('data-id'), n.getBoundingClientRect()]);
    const labels = [...document.querySelectorAll('.edge-label')];
    const out = [];
    labels.forEach((label, i) => {
      const r = label.getBoundingClientRect();
      const id = label.dataset.testid.replace('edge-label-', '');
      for (const [node, n] of nodes) if (hit(r, n)) out.push(id + ' covers step ' + node);
      labels.forEach((other, j) => { if (j > i && hit(r, other.getBoundingClientRect())) out.push(id + ' covers label ' + other.dataset.testid.replace('edge-label-', '')); });
      for (const word of label.querySelectorAll('.edge-outcome, .edge-loop, .edge-share, .edge-problem')) {
        const w = word.getBoundingClientRect();
        if (w.left < r.left - 0.5 || w.right > r.right + 0.5) out.push(id + ' cuts "' + word.textContent + '"');
      }
      const x = (r.left + r.right) / 2;
      const y = (r.top + r.bottom) / 2;
      if (x < pane.left || x > pane.right || y < pane.top || y > pane.bottom) { out.push(id + ' outside the view'); return; }
      const at = document.elementFromPoint(x, y);
      if (at === null || !label.contains(at)) out.push(id + ' not clickable (under ' + (at === null ? 'nothing' : at.className || at.tagName) + ')');
    });
    return out;
  })()`);
}

for (const where of ['editor', 'run page', 'insights'] as const) {
  test(`${where}: every title is ${MIN_TITLE_PX} px or more on screen and every edge label is clear and clickable, in the six examples`, async ({ page }) => {
    const problems: string[] = [];
    for (const id of EXAMPLES) {
      await open(page, where, id);
      // Insights scroll inside the app's content: its graph is under the charts.
      if (where === 'insights') await page.evaluate(`document.querySelector('[data-testid="insights-graph"]').scrollIntoView({ block: 'center' })`);
      for (const p of await smallTitles(page)) problems.push(`${id}: title ${p}`);
      for (const p of await labelProblems(page)) problems.push(`${id}: label ${p}`);
      await page.screenshot({ path: `test-results/screenshots/graph-${where.replace(' ', '-')}-${id}.png` });
    }
    expect(problems).toEqual([]);
  });
}

/**
 * The contrast of skipped steps and edges not taken against the canvas, as drawn (colours through
 * a canvas 2D context, so any CSS colour form is read; opacities of the element and its
 * ancestors composited over the canvas's colour).
 */
function skippedContrast(page: Page): Promise<{ what: string; ratio: number; need: number }[]> {
  return page.evaluate(`(() => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgba = (css) => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1); const d = ctx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
    const over = (top, a, under) => [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a));
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const opacity = (from, to) => { let o = 1; for (let e = from; e && e !== to; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
    const canvas = rgba(getComputedStyle(document.querySelector('.graph')).backgroundColor).slice(0, 3);
    const out = [];
    for (const node of document.querySelectorAll('.step-node[data-run-state="skipped"], .step-node[data-run-state="blocked"]')) {
      const id = node.getAttribute('data-testid');
      const box = node.closest('.react-flow__node');
      const o = opacity(node, box.parentElement);
      const bgc = rgba(getComputedStyle(node).backgroundColor);
      const bg = over(bgc, bgc[3], canvas);
      const border = rgba(getComputedStyle(node).borderTopColor);
      out.push({ what: id + ' border (' + getComputedStyle(node).borderTopStyle + ')', ratio: ratio(over(over(border, border[3], bg), o, canvas), canvas), need: 3 });
      for (const text of node.querySelectorAll('.step-node-name, .node-state')) {
        const c = rgba(getComputedStyle(text).color);
        const inner = opacity(text, node);
        const textBgC = rgba(getComputedStyle(text).backgroundColor);
        const under = textBgC[3] > 0 ? over(textBgC, textBgC[3], bg) : bg;
        out.push({ what: id + ' text "' + text.textContent + '"', ratio: ratio(over(over(c, c[3] * inner, under), o, canvas), over(under, o, canvas)), need: 4.5 });
      }
    }
    for (const path of document.querySelectorAll('path.outcome-edge[data-taken="false"]')) {
      const id = path.closest('.react-flow__edge').getAttribute('data-id');
      const s = rgba(getComputedStyle(path).stroke);
      const o = opacity(path, document.querySelector('.react-flow'));
      out.push({ what: 'edge ' + id + ' (dash ' + getComputedStyle(path).strokeDasharray + ')', ratio: ratio(over(s, s[3] * o, canvas), canvas), need: 3 });
    }
    return out;
  })()`);
}

test('dark theme: skipped steps and edges not taken stay dashed, with contrast against the canvas', async ({ page }) => {
  await page.goto(served.address);
  await setTheme(page, 'dark');
  await open(page, 'run page', 'trip-saga');
  await expect(page.locator('.step-node[data-run-state="skipped"]').first()).toBeVisible();
  await expect(page.locator('path.outcome-edge[data-taken="false"]').first()).toBeAttached();
  const measured = await skippedContrast(page);
  expect(measured.length).toBeGreaterThan(3);
  // Still read as skipped: dashed borders and dashed edges.
  for (const m of measured.filter((x) => x.what.includes('border') || x.what.startsWith('edge'))) expect(m.what).toMatch(/dashed|dash \d/);
  await page.screenshot({ path: 'test-results/screenshots/graph-skipped-dark.png' });
  expect(measured.filter((m) => m.ratio < m.need).map((m) => `${m.what}: ${m.ratio.toFixed(2)}:1, needs ${m.need}:1`)).toEqual([]);
  await setTheme(page, 'light');
});
