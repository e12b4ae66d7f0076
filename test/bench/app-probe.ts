// The app bench's instruments inside the page, installed before the app's own scripts at every
// navigation: a count of the /api/ requests in flight (fetch wrapped), the long tasks, and a
// watch that, from the document's start, checks each animation frame what the page shows and
// notes the first frame each condition held and the frame after it (painted). The clock is the
// page's own: performance.now() counts from the navigation's start (the time origin), so a figure
// is "from page.goto to usable" without Playwright's round trips. Plain text because this
// project's test code is type-checked without the DOM library.
import type { Page } from '@playwright/test';

export interface ProbeConfig {
  /** Rows the workflows list must show. */
  rows: number;
  /** The step a failed run opens at. */
  step: string;
}

/** A condition's first frame (`at`) and the frame after it, when it has been painted (`painted`). */
export interface Seen {
  at: number;
  painted: number;
}

export interface ApiTiming {
  /** The path with ids as :id (GET /api/runs/:id). */
  route: string;
  startMs: number;
  endMs: number;
  bytes: number;
}

export interface LoadProfile {
  /** Every condition seen, by name, in the page's clock (ms from the navigation's start). */
  seen: Record<string, Seen>;
  documentEndMs: number;
  domContentLoadedMs: number;
  scripts: { name: string; startMs: number; endMs: number; transferBytes: number; bodyBytes: number }[];
  api: ApiTiming[];
  longTasks: { startMs: number; durationMs: number }[];
}

const probe = (config: ProbeConfig): string => String.raw`
(() => {
  if (window.__appBench) return;
  const CONFIG = ${JSON.stringify(config)};
  const api = { inflight: 0, started: 0 };
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const counted = new URL(url, location.href).pathname.startsWith('/api/');
    if (!counted) return realFetch(input, init);
    api.inflight += 1;
    api.started += 1;
    const done = () => { api.inflight -= 1; };
    return realFetch(input, init).then((r) => {
      // Settled when the body is read, as the app reads it.
      const clone = r.clone();
      clone.arrayBuffer().then(done, done);
      return r;
    }, (e) => { done(); throw e; });
  };
  const longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ startMs: e.startTime, durationMs: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}

  const q = (s) => document.querySelector(s);
  const INITIAL = 'translate(0px, 0px) scale(1)';
  // A graph drawn at its opening zoom: nodes in the DOM, none hidden for measuring, the viewport
  // set by the fit (React Flow starts at the identity transform).
  const drawn = (root) => {
    const c = q(root);
    if (!c) return false;
    const nodes = c.querySelectorAll('.react-flow__node');
    // At the far level a large workflow's steps are drawn on one canvas (renderer/editor/far-canvas.tsx).
    const far = c.querySelector('[data-testid="far-canvas"]') !== null && (window.__weftFarView?.drawn() ?? 0) > 0;
    if (nodes.length === 0 && !far) return false;
    for (const n of nodes) if (n.style.visibility === 'hidden') return false;
    const v = c.querySelector('.react-flow__viewport');
    return v !== null && v.style.transform !== '' && v.style.transform !== INITIAL;
  };
  const rowsShown = () => {
    const rows = document.querySelectorAll('[data-testid="workflow-list"] tbody tr');
    if (rows.length !== CONFIG.rows) return false;
    for (const r of rows) if (!r.querySelector('.badge')) return false;
    return true;
  };
  const text = (s) => (q(s)?.textContent ?? '').trim();
  const CONDITIONS = {
    list: {
      rows: rowsShown,
      health: () => text('[data-testid="workspace"]') !== '',
      quiet: () => api.started > 0 && api.inflight === 0,
    },
    run: {
      graph: () => drawn('[data-testid="workflow-graph"]'),
      detail: () => q('[data-testid="step-detail"][data-step="' + CONFIG.step + '"] [data-testid="attempt-detail"]') !== null,
      bar: () => q('[data-testid="timeline-bar"]') !== null,
      quiet: () => api.started > 0 && api.inflight === 0,
    },
    editor: {
      graph: () => drawn('[data-testid="editor-canvas"]'),
      inspector: () => q('[data-testid="workflow-inspector"] input') !== null,
      validated: () => (window.__weftValidation?.runs ?? 0) > 0,
      quiet: () => api.started > 0 && api.inflight === 0,
    },
  };
  const USABLE = { list: ['rows', 'health', 'quiet'], run: ['graph', 'detail'], editor: ['graph', 'inspector'] };
  const hash = location.hash;
  if (hash === '' && location.protocol === 'about:') return;
  const kind = /^#\/run\//.test(hash) ? 'run' : /^#\/workflow\//.test(hash) ? 'editor' : 'list';
  const seen = {};
  const watches = [];
  const note = (name, now) => {
    const s = { at: now, painted: null };
    seen[name] = s;
    requestAnimationFrame(() => { s.painted = performance.now(); });
  };
  // Each condition is tested once a frame, only until it is seen; usable is the first frame in
  // which every one it needs holds at once (tested again in that frame, a condition may have
  // held earlier and stopped, as a graph laid out anew does).
  let ticking = false;
  const tick = () => {
    const now = performance.now();
    const held = {};
    for (let i = watches.length - 1; i >= 0; i--) {
      const w = watches[i];
      let ok = false;
      try { ok = w.test(held); } catch {}
      held[w.name] = ok;
      if (ok) { note(w.name, now); watches.splice(i, 1); }
    }
    if (watches.length > 0) requestAnimationFrame(tick);
    else ticking = false;
  };
  const watch = (name, test) => {
    watches.push({ name, test });
    if (!ticking) { ticking = true; requestAnimationFrame(tick); }
  };
  const needs = USABLE[kind];
  watch('usable', (held) => needs.every((n) => held[n] ?? CONDITIONS[kind][n]()));
  for (const [name, test] of Object.entries(CONDITIONS[kind])) watch(name, test);

  const lastClick = { at: 0 };
  window.addEventListener('click', () => { lastClick.at = performance.now(); }, true);
  const route = (path) => path.replace(/^\/api\/runs\/[^/]+/, '/api/runs/:id').replace(/^\/api\/workflows\/[^/]+/, '/api/workflows/:id');
  window.__appBench = {
    kind,
    seen: (name) => { const s = seen[name]; return s !== undefined && s.painted !== null ? s : null; },
    lastClick: () => lastClick.at,
    /** Watches for the step's new attempt after a retry: on the graph's node, and in the step detail. */
    armRetry(step) {
      const nodeState = '[data-testid="step-state-' + step + '"]';
      const count = () => { const m = /×(\d+)/.exec(text(nodeState + ' .attempts')); return q(nodeState) === null ? null : m === null ? 1 : Number(m[1]); };
      const tabs = () => new Set([...document.querySelectorAll('[data-testid="step-detail"][data-step="' + step + '"] [data-testid^="attempt-tab-"]')].map((e) => e.dataset.testid));
      const before = { count: count(), tabs: tabs() };
      for (const n of ['retry-graph', 'retry-detail']) delete seen[n];
      watch('retry-graph', () => { const c = count(); return c !== null && before.count !== null && c > before.count; });
      watch('retry-detail', () => { for (const t of tabs()) if (!before.tabs.has(t)) return true; return false; });
      return { graphAttempts: before.count, tabs: before.tabs.size };
    },
    profile() {
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const scripts = resources.filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link' || /\.(js|css)$/.test(new URL(e.name).pathname))
        .filter((e) => !new URL(e.name).pathname.startsWith('/api/'))
        .map((e) => ({ name: new URL(e.name).pathname, startMs: e.startTime, endMs: e.responseEnd, transferBytes: e.transferSize, bodyBytes: e.decodedBodySize }));
      const apiTimings = resources.filter((e) => new URL(e.name).pathname.startsWith('/api/'))
        .map((e) => ({ route: route(new URL(e.name).pathname), startMs: e.startTime, endMs: e.responseEnd, bytes: e.decodedBodySize }));
      const all = {};
      for (const [k, v] of Object.entries(seen)) if (v.painted !== null) all[k] = v;
      return { seen: all, documentEndMs: nav?.responseEnd ?? 0, domContentLoadedMs: nav?.domContentLoadedEventEnd ?? 0, scripts, api: apiTimings, longTasks };
    },
  };
})();
`;

/** Installs the instruments in every page of the context, before the app's scripts. */
export async function installAppProbe(page: Page, config: ProbeConfig): Promise<void> {
  await page.context().addInitScript({ content: probe(config) });
}

/**
 * Waits (bounded) until the page has painted `name`; an error box on the page ends the wait.
 * Polled from here with page.evaluate: the app's content security policy forbids the eval that
 * page.waitForFunction would need for a string.
 */
export async function waitSeen(page: Page, name: string, timeoutMs: number): Promise<Seen> {
  const expression = `(() => { const f = document.querySelector('.error-box'); if (f) return { error: f.textContent }; return window.__appBench?.seen(${JSON.stringify(name)}) ?? null; })()`;
  const t0 = Date.now();
  for (;;) {
    const value = (await page.evaluate(expression)) as Seen | { error: string } | null;
    if (value !== null && 'error' in value) throw new Error(`the page showed an error while waiting for ${name}: ${value.error}`);
    if (value !== null) return value;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${name} not seen within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function loadProfile(page: Page): Promise<LoadProfile> {
  return page.evaluate('window.__appBench.profile()') as Promise<LoadProfile>;
}

export function armRetry(page: Page, step: string): Promise<{ graphAttempts: number | null; tabs: number }> {
  return page.evaluate(`window.__appBench.armRetry(${JSON.stringify(step)})`) as Promise<{ graphAttempts: number | null; tabs: number }>;
}

export function lastClick(page: Page): Promise<number> {
  return page.evaluate('window.__appBench.lastClick()') as Promise<number>;
}
