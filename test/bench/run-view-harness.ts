// The runs bench's page, as source for esbuild (resolved from the repository's root): the real
// <Timeline> fed by the real useRunTimeline hook and TimelineClient, reading the real `weft
// serve` it is served beside (same origin, its token). window.__runBench opens a run and times
// it, and measures frames while scrolling: all timed with the page's own clock. Plain text
// because this project's test code is type-checked without the DOM library.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/weft-serve.ts';

const SOURCE = String.raw`
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TimelineClient } from './renderer/api/timeline-client.ts';
import { useRunTimeline } from './renderer/runs/timeline/use-run-timeline.ts';
import { Timeline } from './renderer/runs/timeline/timeline.tsx';

const FRAME_MS = 1000 / 60;
const raf = () => new Promise((r) => requestAnimationFrame(r));
const marks = {};

function View({ runId, client }) {
  const { model, live, pagingEvents, error } = useRunTimeline(runId, client, null);
  const [selected, setSelected] = useState(null);
  useEffect(() => { if (model !== null && marks.modelAt === undefined) marks.modelAt = performance.now(); }, [model]);
  useEffect(() => { if (model !== null && !pagingEvents && marks.eventsAt === undefined) { marks.eventsAt = performance.now(); marks.rows = model.rows.length; } }, [model, pagingEvents]);
  if (error !== null) return <div className="error-box">{error}</div>;
  if (model === null) return <div className="loading">loading</div>;
  return <Timeline model={model} selected={selected} onSelect={setSelected} nowMs={model.asOfMs} live={live} />;
}

let root = null;

function frameStats(times) {
  let longestMs = 0, dropped = 0;
  for (let i = 1; i < times.length; i++) {
    const gap = times[i] - times[i - 1];
    longestMs = Math.max(longestMs, gap);
    dropped += Math.max(0, Math.round(gap / FRAME_MS) - 1);
  }
  const elapsedMs = times[times.length - 1] - times[0];
  return { frames: times.length - 1, fps: (times.length - 1) / (elapsedMs / 1000), longestMs, dropped };
}

window.__runBench = {
  /** Opens the run; resolves at the frame after its first bars are drawn. */
  async open(runId, token, timeoutMs) {
    for (const k of Object.keys(marks)) delete marks[k];
    if (root !== null) root.unmount();
    const el = document.getElementById('root');
    el.innerHTML = '';
    const real = new TimelineClient(token);
    const client = {
      timeline: (id) => real.timeline(id),
      async events(id, after, limit) { const page = await real.events(id, after, limit); if (marks.firstPageAt === undefined) marks.firstPageAt = performance.now(); return page; },
    };
    const t0 = performance.now();
    marks.t0 = t0;
    root = createRoot(el);
    // A fresh cache each open, as a page opened anew: nothing of the last open is reused.
    root.render(<QueryClientProvider client={new QueryClient()}><div style={{ height: '100vh', padding: 8, boxSizing: 'border-box' }}><View runId={runId} client={client} /></div></QueryClientProvider>);
    for (;;) {
      await raf();
      const failed = document.querySelector('.error-box');
      if (failed) throw new Error('the timeline showed an error: ' + failed.textContent);
      if (performance.now() - t0 > timeoutMs) throw new Error('no timeline bars within ' + timeoutMs + ' ms');
      if (document.querySelector('[data-testid="timeline-bar"]')) break;
    }
    await raf();
    await raf();
    const firstRenderMs = performance.now() - t0;
    const rows = document.querySelectorAll('[data-testid="timeline-row"]').length;
    return { firstRenderMs, fetchMs: marks.firstPageAt - t0, rowsInDom: rows };
  },
  /** Resolves when every event is paged in (markers and outcomes complete). */
  async eventsPaged(timeoutMs) {
    const t0 = performance.now();
    while (marks.eventsAt === undefined) {
      const failed = document.querySelector('.error-box');
      if (failed) throw new Error('paging the events failed: ' + failed.textContent);
      if (performance.now() - t0 > timeoutMs) throw new Error('events not paged within ' + timeoutMs + ' ms');
      await raf();
    }
    return { ms: marks.eventsAt - marks.t0, rows: marks.rows };
  },
  /** Scrolls the rows for durationMs, pxPerFrame each frame (reversing at either end), counting frames. */
  async scroll(durationMs, pxPerFrame) {
    const el = document.querySelector('.tl-scroll');
    let dir = 1;
    const times = [performance.now()];
    const t0 = times[0];
    let mounts = 0;
    const observer = new MutationObserver((rs) => { for (const r of rs) mounts += r.addedNodes.length; });
    observer.observe(el.firstElementChild, { childList: true });
    while (performance.now() - t0 < durationMs) {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) dir = -1;
      else if (el.scrollTop <= 0) dir = 1;
      el.scrollTop += dir * pxPerFrame;
      times.push(await raf());
    }
    observer.disconnect();
    return { ...frameStats(times), rowMounts: mounts };
  },
  frames: { times: [], on: false },
  startFrames() {
    const f = this.frames;
    f.times = [performance.now()];
    f.on = true;
    const tick = (t) => { if (!f.on) return; f.times.push(t); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  },
  stopFrames() {
    this.frames.on = false;
    return frameStats([...this.frames.times, performance.now()]);
  },
  /** The time, fetched and parsed by the page, to read PATH (the run detail, the server's timeline). */
  async fetchJson(path, token) {
    const t0 = performance.now();
    const response = await fetch(path, { headers: { authorization: 'Bearer ' + token } });
    const text = await response.text();
    JSON.parse(text);
    return { ms: performance.now() - t0, bytes: text.length };
  },
};
window.__runBenchReady = true;
`;

export interface HarnessFiles {
  html: string;
  js: string;
  css: string;
}

/** The page, bundled for production (as `vite build` would: no React development checks). */
export async function buildHarness(): Promise<HarnessFiles> {
  const out = await build({
    stdin: { contents: SOURCE, resolveDir: REPO_ROOT, loader: 'tsx', sourcefile: 'run-view-harness.tsx' },
    bundle: true,
    write: false,
    format: 'iife',
    outdir: 'bench-out',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const js = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const css = out.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  const theme = ['tokens.css', 'app.css', 'controls.css'].map((f) => readFileSync(join(REPO_ROOT, 'renderer/theme', f), 'utf8')).join('\n');
  return {
    html: '<!doctype html><html data-theme="light"><head><link rel="stylesheet" href="/__bench/timeline.css"></head><body style="margin:0"><div id="root"></div><script src="/__bench/timeline.js"></script></body></html>',
    js,
    css: `${theme}\n${css}`,
  };
}
