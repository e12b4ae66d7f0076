// The engine supervisor with a REAL engine: `node bin/weft.js serve` on a temporary workspace and
// store, killed with SIGKILL, frozen with SIGSTOP, made to die at once, and stopped, as the
// desktop app's main process would see it (issue 14: the engine is back within two seconds and a
// run in progress continues).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { desktopSessionSchema, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { startEngineSupervisor, type EngineSupervisor, type EngineSupervisorOptions } from '../../electron/main/engine-supervisor.ts';
import { runWeft } from '../cli/run-weft.ts';
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

async function slowApi(delayMs: number): Promise<SlowApi> {
  const s = await startSlowApi(delayMs);
  cleanups.push(() => s.close());
  return s;
}

async function supervise(f: EngineFixture, extra: Partial<EngineSupervisorOptions> = {}): Promise<{ sup: EngineSupervisor; logs: string[]; endpoints: DesktopSession[] }> {
  const logs: string[] = [];
  const endpoints: DesktopSession[] = [];
  const sup = await startEngineSupervisor({
    workspace: f.workspace,
    env: f.env,
    command: process.execPath,
    args: f.args,
    onEndpoint: (s) => endpoints.push(s),
    onLog: (line) => logs.push(line),
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

it('brings a killed engine back within two seconds with the same token and port, and the run in progress continues to completion from the log', async () => {
  const f = fixture();
  const slow = await slowApi(1_500);
  const { sup, logs, endpoints } = await supervise(f);
  const s = sup.session();
  const runId = await startRun(s, slow.url);
  await until(() => slow.requests() === 1, 'the step to call the slow API');
  const killed = sup.pid() ?? 0;

  process.kill(killed, 'SIGKILL');
  const t0 = Date.now();
  await until(async () => sup.pid() !== killed && (await healthy(s.url, s.token)), 'the engine to answer again', 10_000);
  const backMs = Date.now() - t0;
  expect(backMs).toBeLessThan(2_000);
  expect(sup.starts()).toBe(2);
  expect(sup.session()).toEqual(s);
  expect(endpoints).toEqual([]);
  expect(alive(killed)).toBe(false);
  expect(logs.join('\n')).toMatch(/the engine exited \(SIGKILL\); restarting it/);
  expect(logs.join('\n')).not.toContain(s.token);

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
}, 40_000);

it('stop() ends the engine with SIGTERM, leaves no process behind, and the next engine continues the interrupted attempt', async () => {
  const baseline = timers();
  const f = fixture();
  const slow = await slowApi(1_000);
  const { sup, logs } = await supervise(f, { stopTimeoutMs: 10_000 });
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

  const again = await supervise(f);
  const s = again.sup.session();
  await until(async () => (await runState(s, runId)) === 'succeeded', 'the next engine to finish the run');
  const codes = (await events(s, runId)).filter((e) => e.type === 'attempt_failed').map((e) => e.data.error?.code);
  expect(codes).toEqual(['interrupted']);
}, 40_000);

it('replaces a hung engine (SIGSTOP) that stops answering its health checks', async () => {
  const f = fixture();
  const { sup, logs } = await supervise(f, { healthIntervalMs: 200 });
  const s = sup.session();
  const hung = sup.pid() ?? 0;
  process.kill(hung, 'SIGSTOP');
  cleanups.push(() => {
    if (alive(hung)) process.kill(hung, 'SIGKILL');
  });
  await until(async () => sup.pid() !== hung && (await healthy(s.url, s.token)), 'a new engine to answer', 15_000);
  expect(alive(hung)).toBe(false);
  expect(sup.starts()).toBe(2);
  expect(sup.session()).toEqual(s);
  expect(logs.join('\n')).toMatch(new RegExp(`the engine \\(process ${hung}\\) did not answer 3 health checks in a row; replacing it`));
}, 30_000);

it('restarts on a new port, and says so through onEndpoint, when another program took the old one', async () => {
  const f = fixture();
  const { sup, endpoints } = await supervise(f, { restartDelayMs: 500 });
  const s = sup.session();
  const port = Number(new URL(s.url).port);
  const first = sup.pid() ?? 0;
  process.kill(first, 'SIGKILL');
  await until(() => !alive(first), 'the engine to die');
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
  await until(() => endpoints.length === 1, 'onEndpoint');
  const moved = endpoints[0];
  expect(moved?.token).toBe(s.token);
  expect(moved?.url).not.toBe(s.url);
  expect(sup.session()).toEqual(moved);
  expect(await healthy(moved?.url ?? '', s.token)).toBe(true);
}, 30_000);

it('backs off when the engine keeps dying at once, says why, and recovers when the cause is gone', async () => {
  const f = fixture();
  const { sup, logs } = await supervise(f, { restartDelayMs: 50 });
  const s = sup.session();
  // The engine refuses to start without its workspace folder: every restart now dies at once.
  rmSync(f.workspace, { recursive: true });
  process.kill(sup.pid() ?? 0, 'SIGKILL');
  await until(() => logs.some((l) => l.includes('times within 30 s')), 'the backoff to be reported', 25_000);
  const all = logs.join('\n');
  expect(all).toMatch(/the engine died 5 times within 30 s, so the next restart waits 1 s/);
  expect(all).toMatch(/the engine did not start: it exited \(code \d+\) before printing its address/);
  expect(all).toContain('is not a folder');
  const startsAtBackoff = sup.starts();
  await new Promise((r) => setTimeout(r, 600));
  expect(sup.starts()).toBe(startsAtBackoff); // still waiting out the 1 s, not restarting at once
  mkdirSync(f.workspace);
  writeFileSync(join(f.workspace, 'slow.weft.json'), JSON.stringify(slowFlow));
  await until(() => healthy(s.url, s.token), 'the engine to come back', 15_000);
  expect(sup.session().token).toBe(s.token);
}, 40_000);

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

it('rejects an engine that prints no address in time, and kills it', async () => {
  const f = fixture();
  const pidFile = join(f.root, 'pid');
  const hanging = startEngineSupervisor({
    workspace: f.workspace,
    env: {},
    command: process.execPath,
    args: ['-e', `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`],
    onEndpoint: () => {},
    startTimeoutMs: 1_500,
  });
  await expect(hanging).rejects.toThrow(/^the engine did not start: it printed no address within 1\.5 s/);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  await until(() => !alive(pid), 'the hanging engine to be killed', 5_000);
});
