// The engine supervisor with a REAL engine: `node bin/weft.js serve` on a temporary workspace and
// store, killed with SIGKILL, frozen with SIGSTOP, made to die at once, and stopped, as the
// desktop app's main process would see it (issue 14: the engine comes back and a run in progress
// continues). Every wait is for a state; how fast the engine is back is a figure for
// `npm run bench -- supervisor` (test/bench/supervisor-bench.ts), not an assertion here.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { desktopSessionSchema, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { startEngineSupervisor, type EngineSupervisor, type EngineSupervisorOptions } from '../../electron/main/engine-supervisor.ts';
import { runWeft } from '../cli/run-weft.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';
import { alive, api, engineFixture, healthy, slowFlow, startSlowApi, until, type EngineFixture, type SlowApi } from './engine-fixture.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

function fixture(): EngineFixture {
  const f = engineFixture();
  cleanups.push(() => f.remove());
  return f;
}

async function slowApi(): Promise<SlowApi> {
  const s = await startSlowApi();
  cleanups.push(() => s.close());
  return s;
}

/** `onLine` hears each log line as it is said, in the supervisor's own turn (before it acts on it). */
async function supervise(f: EngineFixture, extra: Partial<EngineSupervisorOptions> = {}, onLine: (line: string) => void = () => {}): Promise<{ sup: EngineSupervisor; logs: string[]; endpoints: DesktopSession[] }> {
  const logs: string[] = [];
  const endpoints: DesktopSession[] = [];
  const sup = await startEngineSupervisor({
    workspace: f.workspace,
    env: f.env,
    command: process.execPath,
    args: f.args,
    onEndpoint: (s) => endpoints.push(s),
    onLog: (line) => {
      logs.push(line);
      onLine(line);
    },
    ...extra,
  });
  cleanups.push(async () => {
    const pid = sup.pid();
    await sup.stop();
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return { sup, logs, endpoints };
}

interface EventRow {
  type: string;
  step: string | null;
  data: { error?: { code: string } };
}

const events = async (s: DesktopSession, runId: string): Promise<EventRow[]> => ((await api(s.url, s.token, 'GET', `/api/runs/${runId}/events?limit=1000`)).body as { events: EventRow[] }).events;
const runState = async (s: DesktopSession, runId: string): Promise<string> => ((await api(s.url, s.token, 'GET', `/api/runs/${runId}`)).body as { run: { state: string } }).run.state;

async function startRun(s: DesktopSession, apiUrl: string): Promise<string> {
  const started = await api(s.url, s.token, 'POST', '/api/runs', { workflow: 'slow', input: { api: apiUrl } });
  expect(started.status).toBe(201);
  return (started.body as { runId: string }).runId;
}

it('starts the engine, which answers health with the token; the token is in its environment, never its command line', async () => {
  const baseline = timers();
  const f = fixture();
  const { sup } = await supervise(f);
  const s = sup.session();
  expect(desktopSessionSchema.parse(s)).toEqual(s);
  expect(s.workspace).toBe(f.workspace);
  expect(sup.starts()).toBe(1);
  const pid = sup.pid();
  expect(pid).toBeTypeOf('number');
  const health = await api(s.url, s.token, 'GET', '/api/health');
  expect(health).toMatchObject({ status: 200, body: { workspace: f.workspace, store: f.db } });
  expect((await api(s.url, 'x'.repeat(43), 'GET', '/api/health')).status).toBe(401);
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  expect(argv).toContain('serve');
  expect(argv.join(' ')).not.toContain(s.token);
  expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(`WEFT_TOKEN=${s.token}`);
  await sup.stop();
  expect(alive(pid ?? 0)).toBe(false);
  await sup.stop(); // idempotent
  expect(timers()).toBeLessThanOrEqual(baseline);
});

it('brings a killed engine back with the same token and port, and the run in progress continues to completion from the log', async () => {
  const f = fixture();
  const slow = await slowApi();
  const { sup, logs, endpoints } = await supervise(f);
  const s = sup.session();
  const runId = await startRun(s, slow.url);
  // The API holds its answer until released: the attempt is in flight when the engine dies.
  await until(() => slow.requests() === 1, 'the step to call the slow API');
  const killed = sup.pid() ?? 0;

  process.kill(killed, 'SIGKILL');
  await until(async () => sup.pid() !== killed && (await healthy(s.url, s.token)), 'the engine to answer again');
  expect(sup.starts()).toBe(2);
  expect(sup.session()).toEqual(s);
  expect(endpoints).toEqual([]);
  expect(alive(killed)).toBe(false);
  expect(logs.join('\n')).toMatch(/the engine exited \(SIGKILL\); restarting it/);
  expect(logs.join('\n')).not.toContain(s.token);

  slow.release();
  await until(async () => (await runState(s, runId)) === 'succeeded', 'the run to succeed');
  const log = await events(s, runId);
  const ofCall = log.filter((e) => e.step === 'call' && e.type.startsWith('attempt_'));
  expect(ofCall.map((e) => [e.type, e.data.error?.code])).toEqual([
    ['attempt_started', undefined],
    ['attempt_failed', 'interrupted'],
    ['attempt_started', undefined],
    ['attempt_succeeded', undefined],
  ]);
  expect(slow.requests()).toBe(2);
});

it('stop() ends the engine with SIGTERM, leaves no process behind, and the next engine continues the interrupted attempt', async () => {
  const baseline = timers();
  const f = fixture();
  const slow = await slowApi();
  // SIGKILL only after the bound a broken test is stopped at: SIGTERM must do it, at any speed.
  const { sup, logs } = await supervise(f, { stopTimeoutMs: WAIT_BOUND_MS });
  const runId = await startRun(sup.session(), slow.url);
  await until(() => slow.requests() === 1, 'the step to call the slow API');
  const pid = sup.pid() ?? 0;
  await Promise.all([sup.stop(), sup.stop()]);
  expect(alive(pid)).toBe(false);
  expect(sup.starts()).toBe(1);
  expect(logs.join('\n')).toContain('weft serve: stopped');
  expect(logs.join('\n')).not.toContain('did not stop within');
  expect(timers()).toBeLessThanOrEqual(baseline);

  // The store has the attempt's start and the run is unfinished: the stop lost nothing.
  const stored = await runWeft(['events', runId, '--db', f.db, '--json'], f.root, { env: f.env });
  expect(stored.code).toBe(0);
  const types = (JSON.parse(stored.stdout) as { events: EventRow[] }).events.map((e) => e.type);
  expect(types).toContain('attempt_started');
  expect(types).not.toContain('attempt_succeeded');

  slow.release();
  const again = await supervise(f);
  const s = again.sup.session();
  await until(async () => (await runState(s, runId)) === 'succeeded', 'the next engine to finish the run');
  const codes = (await events(s, runId)).filter((e) => e.type === 'attempt_failed').map((e) => e.data.error?.code);
  expect(codes).toEqual(['interrupted']);
});

it('replaces a hung engine (SIGSTOP) that stops answering its health checks', async () => {
  const f = fixture();
  const { sup, logs } = await supervise(f, { healthIntervalMs: 200 });
  const s = sup.session();
  const hung = sup.pid() ?? 0;
  process.kill(hung, 'SIGSTOP');
  cleanups.push(() => {
    if (alive(hung)) process.kill(hung, 'SIGKILL');
  });
  await until(async () => sup.pid() !== hung && (await healthy(s.url, s.token)), 'a new engine to answer');
  expect(alive(hung)).toBe(false);
  // At least one replacement: with checks this short, a machine busy enough may also find its
  // successor slow to answer at first, and replacing that one too is the same rule at work.
  expect(sup.starts()).toBeGreaterThanOrEqual(2);
  expect(sup.session()).toEqual(s);
  expect(logs.join('\n')).toMatch(new RegExp(`the engine \\(process ${hung}\\) did not answer 3 health checks in a row; replacing it`));
});

it('restarts on a new port, and says so through onEndpoint, when another program took the old one', async () => {
  const f = fixture();
  const squatter: Server = createServer();
  cleanups.push(() => new Promise<void>((resolve) => (squatter.listening ? squatter.close(() => resolve()) : resolve())));
  let port = 0;
  // The squatter takes the port in the supervisor's own turn, as it reports the death: before
  // its restart (set after that line, even with no delay) can look at the port, at any speed.
  const { sup, endpoints } = await supervise(f, {}, (line) => {
    if (line.includes('the engine exited') && !squatter.listening) squatter.listen(port, '127.0.0.1');
  });
  const s = sup.session();
  port = Number(new URL(s.url).port);
  const first = sup.pid() ?? 0;
  process.kill(first, 'SIGKILL');
  await until(() => endpoints.length === 1, 'onEndpoint');
  expect(squatter.address()).toMatchObject({ port });
  const moved = endpoints[0];
  expect(moved?.token).toBe(s.token);
  expect(moved?.url).not.toBe(s.url);
  expect(sup.session()).toEqual(moved);
  expect(await healthy(moved?.url ?? '', s.token)).toBe(true);
});

it('backs off when the engine keeps dying at once, says why, and recovers when the cause is gone', async () => {
  const f = fixture();
  // Deaths are counted on a clock held still: however slowly this machine restarts the engine,
  // they are "in a row" (the 30 s window itself is restart-backoff.test.ts's).
  let backoffAt: number | undefined;
  let startsAtBackoff = 0;
  const { sup, logs } = await supervise(f, { restartDelayMs: 50, now: () => 0 }, (line) => {
    if (backoffAt === undefined && line.includes('times within 30 s')) {
      backoffAt = performance.now();
      startsAtBackoff = sup.starts();
    }
  });
  const s = sup.session();
  // The engine refuses to start without its workspace folder: every restart now dies at once.
  rmSync(f.workspace, { recursive: true });
  process.kill(sup.pid() ?? 0, 'SIGKILL');
  await until(() => backoffAt !== undefined, 'the backoff to be reported');
  const all = logs.join('\n');
  expect(all).toMatch(/the engine died 5 times within 30 s, so the next restart waits 1 s/);
  expect(all).toMatch(/the engine did not start: it exited \(code \d+\) before printing its address/);
  expect(all).toContain('is not a folder');
  // It waits out the 1 s rather than restarting at once. A lower bound only: a slow machine
  // makes the gap longer, never shorter (timers fire no earlier than set; 20 ms for rounding).
  await until(() => sup.starts() > startsAtBackoff, 'the restart after the backoff');
  expect(performance.now() - (backoffAt ?? 0)).toBeGreaterThanOrEqual(980);
  mkdirSync(f.workspace);
  writeFileSync(join(f.workspace, 'slow.weft.json'), JSON.stringify(slowFlow));
  await until(() => healthy(s.url, s.token), 'the engine to come back');
  expect(sup.session().token).toBe(s.token);
});

it('rejects a first start that fails, with the engine\'s last stderr lines and its token scrubbed', async () => {
  const f = fixture();
  const dying = startEngineSupervisor({
    workspace: f.workspace,
    env: {},
    command: process.execPath,
    args: ['-e', 'console.error("cannot open the store; token=" + process.env.WEFT_TOKEN); process.exit(3)'],
    onEndpoint: () => {},
  });
  await expect(dying).rejects.toThrow(/^the engine did not start: it exited \(code 3\) before printing its address .*its last lines:\n {2}cannot open the store; token=\[token\]$/s);
});

/** Processes of this user whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

it('rejects an engine that prints no address in time, and kills it', async () => {
  const f = fixture();
  // The stand-in never prints: the time box is right whenever it fires. Found by a marker on
  // its command line, since it may be killed before it has run a line of its own.
  const marker = `weft-hanging-engine-${process.pid}-${Date.now()}`;
  const hanging = startEngineSupervisor({
    workspace: f.workspace,
    env: {},
    command: process.execPath,
    args: ['-e', 'setInterval(() => {}, 1000)', marker],
    onEndpoint: () => {},
    startTimeoutMs: 1_500,
  });
  expect(processesWith(marker)).toHaveLength(1);
  await expect(hanging).rejects.toThrow(/^the engine did not start: it printed no address within 1\.5 s/);
  await until(() => processesWith(marker).length === 0, 'the hanging engine to be killed');
});
