// WebSocket clients in a process of their own for the server benchmark, in one of these modes:
// - `single` / `batch`: one client subscribed to every run after cursor 0 (a frame per event, or
//   batch frames).
// - `page`: does what the app does on a run page: loaded, it reads what the app's shell reads (the
//   runs list, the tasks) before it says ready; when stdin says `watch RUN`, it reads the run's
//   detail and first events page and subscribes to that run alone (batch frames, from now on);
//   while its events come it reads the detail again at most every DETAIL_MS (the app's throttled
//   invalidation), and it reads the task list every TASKS_MS (the sidebar's count).
// - `watch`: the run page's subscription alone, without the reads the page makes once its run is
//   open: what the stream itself costs.
// - `pages`: PAGES run pages at once (as many app tabs), each its own WebSocket and reads, on a
//   run each (`watch RUN1,RUN2,…`): the cost of one page times PAGES, large enough to stand out
//   of a busy machine's noise; `watches`: their subscriptions alone, without their reads.
// In the page modes a WARM_RUN (4th argument) is read as the run page reads it before the client
// says ready, so the server's read worker is up and has answered each read a page makes: the
// timed runs measure what pages cost a running server, not the one-time start of its read
// worker. Each client stops at its target cursor (stdin, once the engine is done: a number, or
// one per page, comma-separated), and the process prints {events, frames, ms, resyncs, reads,
// cpuMs}: the events and frames received, from the first event to the last, the HTTP reads made
// after ready and the process's CPU from `watch` (or the first event) on.
// Plain JavaScript, so it starts fast.
import WebSocket from 'ws';

const [url, token, mode, warmRun] = process.argv.slice(2);
const PAGES = 10;
const DETAIL_MS = 500;
const TASKS_MS = 3000;
const batch = mode !== 'single';
/** The page modes subscribe to their runs when stdin says `watch`; `page` and `pages` also read. */
const onRun = mode === 'page' || mode === 'watch' || mode === 'pages' || mode === 'watches';
const reading = mode === 'page' || mode === 'pages';
const base = url.replace(/^ws/, 'http').replace(/\/api\/stream$/, '');

let events = 0;
let frames = 0;
/** The process's CPU from the moment the engine's runs start (`watch`, or the first event). */
let cpuAtStart = process.cpuUsage();
let first = 0;
let last = 0;
let resyncs = 0;
let reads = 0;
let counting = false;

const read = (path) => {
  if (counting) reads += 1;
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer(), () => null);
};

/** One client: its socket, its subscription, where it is and where it stops. */
function client() {
  const ws = new WebSocket(url, ['weft', `weft.bearer.${token}`]);
  const c = { ws, runs: 'all', lastCursor: 0, target: Infinity, detailTimer: null, tasksTimer: null, done: false };
  c.subscribe = (after) => ws.send(JSON.stringify({ subscribe: { runs: c.runs }, after, batch }));
  c.opened = new Promise((resolve) => ws.on('open', resolve));
  c.watch = (run) => {
    c.runs = [run];
    if (reading) {
      void read(`/api/runs/${run}`);
      void read(`/api/runs/${run}/events?after=0&limit=1000&elide=65536`);
      c.tasksTimer = setInterval(() => void read('/api/tasks'), TASKS_MS);
    }
    // As the app's first subscription: from now on (what came before, the reads above have).
    ws.send(JSON.stringify({ subscribe: { runs: c.runs }, batch }));
  };
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.subscribed) {
      // Live from here: what the run committed before, the client has read over HTTP.
      c.lastCursor = Math.max(c.lastCursor, m.subscribed.cursor);
      finishIfDone();
      return;
    }
    if (m.resync) {
      resyncs += 1;
      c.subscribe(m.resync.after);
      return;
    }
    const got = m.events ?? (m.cursor === undefined ? [] : [m]);
    if (got.length === 0) return;
    frames += 1;
    const now = performance.now();
    if (events === 0) {
      first = now;
      if (!onRun) cpuAtStart = process.cpuUsage();
    }
    last = now;
    events += got.length;
    c.lastCursor = got[got.length - 1].cursor;
    if (reading && c.detailTimer === null) {
      c.detailTimer = setTimeout(() => {
        c.detailTimer = null;
        void read(`/api/runs/${c.runs[0]}`);
      }, DETAIL_MS);
    }
    finishIfDone();
  });
  return c;
}

const clients = Array.from({ length: mode === 'pages' || mode === 'watches' ? PAGES : 1 }, client);

function finishIfDone() {
  for (const c of clients) if (c.lastCursor < c.target) return;
  const cpu = process.cpuUsage(cpuAtStart);
  process.stdout.write(`${JSON.stringify({ events, frames, ms: last - first, resyncs, reads, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
  for (const c of clients) {
    if (c.tasksTimer !== null) clearInterval(c.tasksTimer);
    c.ws.close();
  }
  process.exit(0);
}

void Promise.all(clients.map((c) => c.opened)).then(async () => {
  if (!onRun) {
    clients[0].subscribe(0);
    process.stdout.write('ready\n');
    return;
  }
  // The app is loaded before the user opens a run: the shell has read the runs list and the tasks,
  // and the user has looked at a run before (WARM_RUN, read as the run page reads it).
  const earlier = warmRun === undefined ? [] : [read(`/api/runs/${warmRun}`), read(`/api/runs/${warmRun}/events?after=0&limit=1000&elide=65536`)];
  await Promise.all([...earlier, read('/api/runs?limit=50'), read('/api/tasks')]);
  counting = true;
  process.stdout.write('ready\n');
});

let input = '';
process.stdin.on('data', (d) => {
  input += d.toString();
  let nl;
  while ((nl = input.indexOf('\n')) >= 0) {
    const line = input.slice(0, nl).trim();
    input = input.slice(nl + 1);
    if (line.startsWith('watch ')) {
      cpuAtStart = process.cpuUsage();
      line.slice(6).split(',').forEach((run, i) => clients[i]?.watch(run));
    } else if (line !== '') {
      line.split(',').forEach((cursor, i) => {
        const c = clients[i];
        if (c !== undefined) c.target = Number(cursor);
      });
      finishIfDone();
    }
  }
});
