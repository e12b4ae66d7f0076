// A WebSocket client in its own process for the server benchmark: subscribes to every run after
// cursor 0, counts events until it has seen cursor TARGET (read from stdin when the engine is
// done), and prints {events, ms, first, last} as JSON. Plain JavaScript, so it starts fast.
import WebSocket from 'ws';

const [url, token, mode] = process.argv.slice(2);
const batch = mode === 'batch';
const ws = new WebSocket(url, ['weft', `weft.bearer.${token}`]);
let events = 0;
let first = 0;
let last = 0;
let target = Infinity;
let lastCursor = 0;
let resyncs = 0;

function finishIfDone() {
  if (lastCursor >= target) {
    process.stdout.write(`${JSON.stringify({ events, ms: last - first, resyncs })}\n`);
    ws.close();
    process.exit(0);
  }
}

ws.on('open', () => {
  ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0, batch }));
  process.stdout.write('ready\n');
});
ws.on('message', (data) => {
  const m = JSON.parse(data.toString());
  if (m.resync) {
    resyncs += 1;
    ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: m.resync.after, batch }));
    return;
  }
  const got = m.events ?? (m.cursor === undefined ? [] : [m]);
  if (got.length === 0) return;
  const now = performance.now();
  if (events === 0) first = now;
  last = now;
  events += got.length;
  lastCursor = got[got.length - 1].cursor;
  finishIfDone();
});
process.stdin.on('data', (d) => {
  target = Number(d.toString().trim());
  finishIfDone();
});
