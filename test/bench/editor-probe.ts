// The editor bench's instruments inside the page: a frame meter on requestAnimationFrame, a wait
// for the editor's first full paint, points to press on (empty pane, a whole visible node), and a
// keystroke-to-diagnostics timer on `window.__weftValidation`. They run in the page, so what
// they time is the page's own clock, not Playwright's round trips. The script is plain text
// because this project's test code is type-checked without the DOM library.
import type { Page } from '@playwright/test';

export interface FrameStats {
  frames: number;
  elapsedMs: number;
  fps: number;
  longestMs: number;
  /** Frames a 60 Hz display would have shown that the page did not (long gaps, counted in 16.7 ms). */
  dropped: number;
  /** Node elements React Flow mounted meanwhile (a node scrolled into view, or one re-created). */
  nodeMounts: number;
}

export interface OpenResult {
  ms: number;
  /** Nodes in the DOM at first paint (only the visible ones are rendered above 150 steps). */
  rendered: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface KeystrokeResult {
  ms: number;
  lastMs: number | null;
  lastRoundTripMs: number | null;
  frames: FrameStats;
}

const PROBE = String.raw`
(() => {
  if (window.__bench) return;
  const FRAME_MS = 1000 / 60;
  const raf = () => new Promise((r) => requestAnimationFrame(r));
  const meter = { on: false, times: [], mounts: 0, observer: null };
  const tick = (t) => { if (!meter.on) return; meter.times.push(t); requestAnimationFrame(tick); };
  // Node elements React Flow adds while the meter runs: a node mounted again costs far more than a re-render.
  const countMounts = (records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1 && n.classList.contains('react-flow__node')) meter.mounts += 1;
  };
  const startFrames = () => {
    meter.times = [performance.now()];
    meter.mounts = 0;
    meter.on = true;
    const c = document.querySelector('.react-flow__nodes');
    if (c) { meter.observer = new MutationObserver(countMounts); meter.observer.observe(c, { childList: true }); }
    requestAnimationFrame(tick);
  };
  const stopFrames = () => {
    meter.on = false;
    if (meter.observer) { countMounts(meter.observer.takeRecords()); meter.observer.disconnect(); meter.observer = null; }
    const times = [...meter.times, performance.now()];
    let longestMs = 0, dropped = 0;
    for (let i = 1; i < times.length; i++) {
      const gap = times[i] - times[i - 1];
      longestMs = Math.max(longestMs, gap);
      dropped += Math.max(0, Math.round(gap / FRAME_MS) - 1);
    }
    const frames = times.length - 2;
    const elapsedMs = times[times.length - 1] - times[0];
    return { frames, elapsedMs, fps: frames / (elapsedMs / 1000), longestMs, dropped, nodeMounts: meter.mounts };
  };
  const canvas = () => document.querySelector('[data-testid="editor-canvas"]');
  // The far level's canvas (renderer/editor/far-canvas.tsx) and its hook: no node elements there.
  const farView = () => (document.querySelector('[data-testid="far-canvas"]') && window.__weftFarView) || null;
  const INITIAL = 'translate(0px, 0px) scale(1)';

  // First full paint: nodes in the DOM, none still hidden for measuring (or, at the far level of a
  // large workflow, its canvas drawn), the viewport fitted (React Flow starts at the identity
  // transform), then two frames so the paint has happened.
  async function open(id, timeoutMs) {
    const t0 = performance.now();
    location.hash = '#/workflow/' + encodeURIComponent(id);
    for (;;) {
      await raf();
      const failed = document.querySelector('.error-box');
      if (failed) throw new Error('the editor showed an error: ' + failed.textContent);
      if (performance.now() - t0 > timeoutMs) {
        const shown = document.querySelector('.loading')?.textContent ?? document.querySelector('#content')?.textContent?.slice(0, 200);
        throw new Error('the editor did not draw ' + id + ' within ' + timeoutMs + ' ms; the page shows: ' + shown);
      }
      const c = canvas();
      if (!c) continue;
      const nodes = c.querySelectorAll('.react-flow__node');
      const far = farView();
      if (nodes.length === 0 && !(far && far.drawn() > 0)) continue;
      if ([...nodes].some((n) => n.style.visibility === 'hidden')) continue;
      const viewport = c.querySelector('.react-flow__viewport');
      if (!viewport || viewport.style.transform === '' || viewport.style.transform === INITIAL) continue;
      await raf();
      await raf();
      return { ms: performance.now() - t0, rendered: view().rendered };
    }
  }

  // A point of the canvas where a press lands on the pane itself (not a node, minimap or control).
  function emptyPane() {
    const r = canvas().getBoundingClientRect();
    for (let fy = 0.5; fy < 0.95; fy += 0.05) {
      for (let fx = 0.5; fx < 0.95; fx += 0.03) {
        for (const [x, y] of [[r.left + r.width * fx, r.top + r.height * fy], [r.left + r.width * (1 - fx), r.top + r.height * (1 - fy)]]) {
          const el = document.elementFromPoint(x, y);
          const far = farView();
          if (el && el.classList.contains('react-flow__pane') && (!far || far.nodeAt(x, y) === null)) return { x, y };
        }
      }
    }
    return null;
  }

  // The centre of an uncovered node from which the pointer can move reachX either way and reachDown
  // down while staying EDGE px inside the canvas, where React Flow would start to auto-pan.
  const EDGE = 50;
  function innerNode(reachX, reachDown) {
    const r = canvas().getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const fits = (x, y) => x - reachX > r.left + EDGE && x + reachX < r.right - EDGE && y > r.top + EDGE && y + reachDown < r.bottom - EDGE;
    const far = farView();
    if (far) {
      const boxes = far.boxes()
        .map((b) => ({ id: b.id, x: b.x + b.width / 2, y: b.y + b.height / 2 }))
        .filter(({ x, y }) => fits(x, y))
        .sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
      for (const b of boxes) {
        const el = document.elementFromPoint(b.x, b.y);
        if (el && el.classList.contains('react-flow__pane') && far.nodeAt(b.x, b.y) === b.id) return b;
      }
      return null;
    }
    const nodes = [...canvas().querySelectorAll('.react-flow__node')]
      .map((n) => { const b = n.getBoundingClientRect(); return { n, x: b.left + b.width / 2, y: b.top + b.height / 2 }; })
      .filter(({ x, y }) => fits(x, y))
      .sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    for (const { n, x, y } of nodes) {
      if (n.contains(document.elementFromPoint(x, y))) return { id: n.dataset.id, x, y };
    }
    return null;
  }

  const probe = () => window.__weftValidation;
  // Quiet: no validation pending and no new result for quietMs.
  async function validationSettled(quietMs, timeoutMs) {
    const t0 = performance.now();
    let runs = probe().runs, since = performance.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 20));
      const p = probe();
      if (p.pending || p.runs !== runs) { runs = p.runs; since = performance.now(); }
      else if (performance.now() - since >= quietMs) return p.runs;
      if (performance.now() - t0 > timeoutMs) throw new Error('validation never went quiet in ' + timeoutMs + ' ms');
    }
  }

  let armed = null;
  // The clock starts at the keydown itself (capture phase, before React sees it).
  function armKeystroke() {
    armed = { runs: probe().runs, t0: null };
    const state = armed;
    window.addEventListener('keydown', () => { state.t0 = performance.now(); startFrames(); }, { capture: true, once: true });
  }
  async function keystrokeResult(timeoutMs) {
    const state = armed;
    const started = performance.now();
    for (;;) {
      await raf();
      const p = probe();
      if (state.t0 !== null && p.runs > state.runs && !p.pending) {
        const ms = performance.now() - state.t0;
        return { ms, lastMs: p.lastMs, lastRoundTripMs: p.lastRoundTripMs ?? null, frames: stopFrames() };
      }
      if (performance.now() - started > timeoutMs) {
        meter.on = false;
        throw new Error(state.t0 === null ? 'the keystroke never reached the page' : 'no validation result ' + timeoutMs + ' ms after the keystroke');
      }
    }
  }

  // The canvas's zoom and how many nodes it draws: node elements, or the boxes of the far canvas.
  function view() {
    const c = canvas();
    const viewport = c.querySelector('.react-flow__viewport');
    const elements = c.querySelectorAll('.react-flow__node').length;
    const far = farView();
    return { zoom: viewport ? new DOMMatrix(viewport.style.transform).a : 1, rendered: far ? far.drawn() : elements, elements, far: far !== null };
  }

  window.__bench = { open, emptyPane, innerNode, view, raf, startFrames, stopFrames, validationSettled, armKeystroke, keystrokeResult, hasValidation: () => probe() !== undefined };
})();
`;

/** Installs the instruments in every page the context opens. */
export async function installProbe(page: Page): Promise<void> {
  await page.addInitScript({ content: PROBE });
}

/** Navigates the open app to the editor of `id` and resolves at the first full paint. */
export function openEditor(page: Page, id: string, timeoutMs: number): Promise<OpenResult> {
  return page.evaluate(`window.__bench.open(${JSON.stringify(id)}, ${timeoutMs})`) as Promise<OpenResult>;
}

export interface ViewState {
  zoom: number;
  /** Nodes drawn: node elements (React Flow draws only those in view above 150 steps), or the far canvas's boxes. */
  rendered: number;
  /** Node elements in the canvas. */
  elements: number;
  /** The far level's canvas draws the nodes (docs/editor.md, "Zoom levels"). */
  far: boolean;
}

export function viewState(page: Page): Promise<ViewState> {
  return page.evaluate('window.__bench.view()') as Promise<ViewState>;
}

/** Resolves after the page's next two frames. */
export async function frames2(page: Page): Promise<void> {
  await page.evaluate('window.__bench.raf().then(() => window.__bench.raf())');
}

export function emptyPanePoint(page: Page): Promise<Point | null> {
  return page.evaluate('window.__bench.emptyPane()') as Promise<Point | null>;
}

/** A visible node to press on, from which the pointer may move `reach.x` either way and `reach.y` down. */
export function innerNode(page: Page, reach: Point): Promise<(Point & { id: string }) | null> {
  return page.evaluate(`window.__bench.innerNode(${reach.x}, ${reach.y})`) as Promise<(Point & { id: string }) | null>;
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate('window.__bench.startFrames()');
}

export function stopFrames(page: Page): Promise<FrameStats> {
  return page.evaluate('window.__bench.stopFrames()') as Promise<FrameStats>;
}

export function hasValidationProbe(page: Page): Promise<boolean> {
  return page.evaluate('window.__bench.hasValidation()') as Promise<boolean>;
}

export async function validationSettled(page: Page, timeoutMs: number): Promise<void> {
  await page.evaluate(`window.__bench.validationSettled(400, ${timeoutMs})`);
}

export async function armKeystroke(page: Page): Promise<void> {
  await page.evaluate('window.__bench.armKeystroke()');
}

export function keystrokeResult(page: Page, timeoutMs: number): Promise<KeystrokeResult> {
  return page.evaluate(`window.__bench.keystrokeResult(${timeoutMs})`) as Promise<KeystrokeResult>;
}
