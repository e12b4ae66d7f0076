// The desktop shell's engine process: `weft serve` run as a child (the engine is a separate
// process; electron/ never imports engine/), kept alive for as long as the app runs.
//
// - The token is made here, once, and handed over in WEFT_TOKEN, never on the command line.
// - The child is restarted when it exits, or when it stops answering GET /api/health
//   (HEALTH_FAILURES checks in a row), with the same token and, when it is free, the same port,
//   so open pages reconnect by themselves. A new port fires onEndpoint.
// - A first restart waits restartDelayMs; an engine that keeps dying backs off (restart-backoff.ts).
// - stop() sends SIGTERM (the engine records running attempts, as at any stop), and SIGKILL
//   after stopTimeoutMs; nothing restarts after it.
// See docs/desktop-engine.md.
import { desktopSessionSchema, type DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { spawnEngineChild, type EngineChild } from './engine-child.ts';
import { engineAnswers } from './engine-health.ts';
import { newEngineToken } from './engine-token.ts';
import { portIsFree } from './port-free.ts';
import { restartPlan } from './restart-backoff.ts';

/** Health checks that must fail in a row before a live engine is declared hung and replaced. */
export const HEALTH_FAILURES = 3;

export interface EngineSupervisorOptions {
  /** The workspace the engine serves (it is in `args` too); reported in the session. */
  workspace: string;
  /** Added to this process's environment for the engine (WEFT_TOKEN is set by the supervisor). */
  env: Record<string, string>;
  /** In Electron: process.execPath, with ELECTRON_RUN_AS_NODE=1 in env. */
  command: string;
  /** [root/bin/weft.js, 'serve', '--workspace', W, ...]; restarts append --port. */
  args: string[];
  /** The engine came back on another endpoint (not called for the first start: see session()). */
  onEndpoint: (s: DesktopSession) => void;
  /** The engine's stderr lines and the supervisor's decisions, token scrubbed. */
  onLog?: (line: string) => void;
  /** Between health checks; each check may take as long. Default 1000. */
  healthIntervalMs?: number;
  /** Before a restart while the engine is not dying over and over (restart-backoff.ts). Default 0: the engine back at once. */
  restartDelayMs?: number;
  /** From SIGTERM to SIGKILL in stop(). Default 5000. */
  stopTimeoutMs?: number;
  /** For the engine to print its address. Default 30000. */
  startTimeoutMs?: number;
  /** The clock deaths are counted by for the backoff (restart-backoff.ts). Default Date.now; tests hold it still, so a slow machine's deaths still count as "in a row". */
  now?: () => number;
}

export interface EngineSupervisor {
  session(): DesktopSession;
  stop(): Promise<void>;
  /** for tests and the UI: how many times the engine has been started */
  starts(): number;
  pid(): number | undefined;
}

/**
 * Starts the engine and resolves once it listens; rejects, with the engine's last stderr lines,
 * when the first start fails (restarts after that never reject: they retry and log).
 * @example
 * const engine = await startEngineSupervisor({ workspace, env: { ELECTRON_RUN_AS_NODE: '1' },
 *   command: process.execPath, args: [weftJs, 'serve', '--workspace', workspace],
 *   onEndpoint: (s) => win.webContents.send(DESKTOP_CHANNELS.sessionChanged, s) });
 */
export async function startEngineSupervisor(options: EngineSupervisorOptions): Promise<EngineSupervisor> {
  const healthIntervalMs = options.healthIntervalMs ?? 1_000;
  const restartDelayMs = options.restartDelayMs ?? 0;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const clock = options.now ?? Date.now;
  const log = (line: string): void => options.onLog?.(line);
  const say = (line: string): void => log(`engine supervisor: ${line}`);
  const token = newEngineToken();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, options.env);

  let starts = 0;
  let stopping: Promise<void> | undefined;
  let child: EngineChild | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let healthTimer: NodeJS.Timeout | undefined;
  const deaths: number[] = [];

  const launch = (port: number | undefined): EngineChild => {
    starts += 1;
    const args = port === undefined ? options.args : [...options.args, '--port', String(port)];
    const next = spawnEngineChild({ command: options.command, args, env, token, startTimeoutMs, onStderrLine: log });
    child = next;
    return next;
  };

  const first = launch(undefined);
  const endpoint = await first.ready;
  let session = desktopSessionSchema.parse({ url: endpoint.url, token, workspace: options.workspace });

  const watch = (running: EngineChild): void => {
    void running.exited.then(({ code, signal }) => {
      clearTimeout(healthTimer);
      if (stopping !== undefined || child !== running) return;
      died(`the engine exited (${signal ?? `code ${code}`})`);
    });
    let failures = 0;
    const check = async (): Promise<void> => {
      if (stopping !== undefined || child !== running || running.hasExited()) return;
      failures = (await engineAnswers(session.url, token, healthIntervalMs)) ? 0 : failures + 1;
      if (stopping !== undefined || child !== running || running.hasExited()) return;
      if (failures >= HEALTH_FAILURES) {
        say(`the engine (process ${running.pid}) did not answer ${failures} health checks in a row; replacing it`);
        // It cannot handle SIGTERM if it is hung; the next engine records what it left running.
        running.kill('SIGKILL');
        return;
      }
      healthTimer = setTimeout(() => void check(), healthIntervalMs);
    };
    healthTimer = setTimeout(() => void check(), healthIntervalMs);
  };

  const died = (why: string): void => {
    const now = clock();
    deaths.push(now);
    while (deaths.length > 64) deaths.shift();
    const plan = restartPlan(deaths, now, restartDelayMs);
    say(`${why}; restarting it${plan.delayMs > 0 ? ` in ${plan.delayMs} ms` : ''}`);
    if (plan.reason !== undefined) say(plan.reason);
    restartTimer = setTimeout(() => void restart(), plan.delayMs);
  };

  const restart = async (): Promise<void> => {
    restartTimer = undefined;
    if (stopping !== undefined) return;
    const oldPort = Number(new URL(session.url).port);
    const port = (await portIsFree(oldPort)) ? oldPort : 0;
    if (stopping !== undefined) return;
    const next = launch(port);
    let at;
    try {
      at = await next.ready;
    } catch (error) {
      if (stopping !== undefined) return;
      died(error instanceof Error ? error.message : String(error));
      return;
    }
    if (stopping !== undefined || child !== next) return;
    if (at.url !== session.url) {
      session = desktopSessionSchema.parse({ url: at.url, token, workspace: options.workspace });
      say(`the engine came back on another port: ${at.url}`);
      options.onEndpoint(session);
    }
    watch(next);
  };

  const stopChild = async (running: EngineChild): Promise<void> => {
    if (running.hasExited()) return;
    running.kill('SIGTERM');
    // A stopped (SIGSTOP) engine handles SIGTERM only once it runs again.
    running.kill('SIGCONT');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), stopTimeoutMs)));
    const outcome = await Promise.race([running.exited, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      say(`the engine (process ${running.pid}) did not stop within ${stopTimeoutMs} ms; killing it`);
      running.kill('SIGKILL');
      await running.exited;
    }
  };

  watch(first);
  return {
    session: () => session,
    starts: () => starts,
    pid: () => child?.pid,
    stop() {
      stopping ??= (async () => {
        clearTimeout(restartTimer);
        clearTimeout(healthTimer);
        if (child !== undefined) await stopChild(child);
      })();
      return stopping;
    },
  };
}
