// A WebSocket client in its own process for the server benchmark, in one of three modes:
// - `single` / `batch`: subscribes to every run after cursor 0 (a frame per event, or batch
//   frames), counts events until it has seen cursor TARGET (a number read from stdin when the
//   engine is done), and prints {events, ms, resyncs} as JSON.
// - `page`: does what the app does on a run page: loaded, it reads what the app's shell reads (the
//   runs list, the tasks) before it says ready; when stdin says `watch RUN`, it reads the run's
//   detail and first events page and subscribes to that run alone (batch frames, from now on);
//   while its events come it reads the detail again at most every DETAIL_MS (the app's throttled
//   invalidation), and it reads the task list every TASKS_MS (the sidebar's count). It stops at
//   cursor TARGET (the run's last event) and prints {events, ms, resyncs, reads}.
// - `watch`: the run page's subscription alone, without the reads the page makes once its run is
//   open: what the stream itself costs.
// In `page` and `watch`, a WARM_RUN (4th argument) is read as the run page reads it before the
// client says ready; the reads counted are those after ready.
// Each mode also counts the frames it received (`frames`).
// Plain JavaScript, so it starts fast.
import WebSocket from 'ws';

const [url, token, mode, warmRun] = process.argv.slice(2);
const batch = mode !== 'single';
const page = mode === 'page';
/** Subscribes to one run when stdin says `watch RUN` (the run page's subscription). */
const onRun = page || mode === 'watch';
const DETAIL_MS = 500;
const TASKS_MS = 3000;
const base = url.replace(/^ws/, 'http').replace(/\/api\/stream$/, '');
const ws = new WebSocket(url, ['weft', `weft.bearer.${token}`]);
let events = 0;
let frames = 0;
/** The client's own CPU from the moment the engine's runs start (`watch`, or the first event). */
let cpuAtStart = process.cpuUsage();
let first = 0;
let last = 0;
let target = Infinity;
let lastCursor = 0;
let resyncs = 0;
let reads = 0;
let runs = 'all';
let detailTimer = null;
let tasksTimer = null;

const read = (path) => {
  reads += 1;
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer(), () => null);
};

function finishIfDone() {
  if (lastCursor >= target) {
    const cpu = process.cpuUsage(cpuAtStart);
    process.stdout.write(`${JSON.stringify({ events, frames, ms: last - first, resyncs, reads, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
    if (tasksTimer !== null) clearInterval(tasksTimer);
    ws.close();
    process.exit(0);
  }
}

const subscribe = (after) => ws.send(JSON.stringify({ subscribe: { runs }, after, batch }));

ws.on('open', () => {
  if (!onRun) {
    subscribe(0);
    process.stdout.write('ready\n');
    return;
  }
  // The app is loaded before the user opens a run: the shell has read the runs list and the tasks,
  // and the user has looked at a run before (WARM_RUN, read as the run page reads it), so the
  // server's read worker is up and has answered each read the page makes: the timed runs measure
  // what a page costs a running server, not the one-time start of its read worker.
  const earlier = warmRun === undefined ? [] : [read(`/api/runs/${warmRun}`), read(`/api/runs/${warmRun}/events?after=0&limit=1000&elide=65536`)];
  void Promise.all([...earlier, read('/api/runs?limit=50'), read('/api/tasks')]).then(() => {
    // Only a run page reads on from here: `watch` is the stream alone.
    if (page) tasksTimer = setInterval(() => void read('/api/tasks'), TASKS_MS);
    reads = 0;
    process.stdout.write('ready\n');
  });
});
ws.on('message', (data) => {
  const m = JSON.parse(data.toString());
  if (m.subscribed) {
    // Live from here: what the run committed before, the client has read over HTTP.
    lastCursor = Math.max(lastCursor, m.subscribed.cursor);
    finishIfDone();
    return;
  }
  if (m.resync) {
    resyncs += 1;
    subscribe(m.resync.after);
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
  lastCursor = got[got.length - 1].cursor;
  if (page && detailTimer === null) {
    detailTimer = setTimeout(() => {
      detailTimer = null;
      void read(`/api/runs/${runs[0]}`);
    }, DETAIL_MS);
  }
  finishIfDone();
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
      runs = [line.slice(6)];
      if (page) {
        void read(`/api/runs/${runs[0]}`);
        void read(`/api/runs/${runs[0]}/events?after=0&limit=1000&elide=65536`);
      }
      // As the app's first subscription: from now on (what came before, the reads above have).
      ws.send(JSON.stringify({ subscribe: { runs }, batch }));
    } else if (line !== '') {
      target = Number(line);
      finishIfDone();
    }
  }
});
