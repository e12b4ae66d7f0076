// One engine process: spawned with its token in WEFT_TOKEN, its stdout read for the address line,
// its stderr kept (the last lines, token scrubbed) for the error that explains a failed start and
// passed on line by line to the log.
import { spawn } from 'node:child_process';
import { parseEndpointLine, type EngineEndpoint } from './engine-endpoint.ts';
import { scrubToken } from './engine-token.ts';

const TAIL_LINES = 20;
const STDERR_GRACE_MS = 250;

export interface EngineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EngineChild {
  pid: number | undefined;
  /** The address, once the engine printed it; rejects with an EngineStartError otherwise. */
  ready: Promise<EngineEndpoint>;
  /** Settles when the process is gone (also when it could not be spawned). */
  exited: Promise<EngineExit>;
  hasExited(): boolean;
  kill(signal: NodeJS.Signals): void;
}

export class EngineStartError extends Error {
  override name = 'EngineStartError';
}

export interface EngineChildOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  token: string;
  startTimeoutMs: number;
  onStderrLine: (line: string) => void;
}

export function spawnEngineChild(o: EngineChildOptions): EngineChild {
  const tail: string[] = [];
  const keep = (line: string): void => {
    const clean = scrubToken(line, o.token);
    tail.push(clean);
    if (tail.length > TAIL_LINES) tail.shift();
    o.onStderrLine(clean);
  };
  const described = `${o.command} ${o.args.join(' ')}`;
  const failure = (what: string): EngineStartError =>
    new EngineStartError(
      `the engine did not start: ${what} (command: ${scrubToken(described, o.token)})` +
        (tail.length === 0 ? '; it printed nothing on stderr' : `; its last lines:\n${tail.map((l) => `  ${l}`).join('\n')}`),
    );

  const child = spawn(o.command, [...o.args], { env: { ...o.env, WEFT_TOKEN: o.token }, stdio: ['ignore', 'pipe', 'pipe'] });
  let exit: EngineExit | undefined;
  const exited = new Promise<EngineExit>((resolve) => {
    child.once('exit', (code, signal) => resolve((exit = { code, signal })));
    child.once('error', () => {
      // A spawn failure ('exit' never comes); an error after a start is followed by 'exit'.
      if (child.pid === undefined) resolve((exit = { code: null, signal: null }));
    });
  });

  let partial = '';
  let stderrEnded = false;
  const endWaiters: (() => void)[] = [];
  const stderrDrained = (graceMs: number): Promise<void> =>
    stderrEnded
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          endWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    partial += chunk;
    for (let nl = partial.indexOf('\n'); nl >= 0; nl = partial.indexOf('\n')) {
      keep(partial.slice(0, nl));
      partial = partial.slice(nl + 1);
    }
  });
  child.stderr.once('end', () => {
    if (partial !== '') keep(partial);
    partial = '';
    stderrEnded = true;
    for (const wake of endWaiters.splice(0)) wake();
  });

  const ready = new Promise<EngineEndpoint>((resolve, reject) => {
    let out = '';
    let settled = false;
    const settle = (result: EngineEndpoint | EngineStartError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result instanceof EngineStartError) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(() => {
      settle(failure(`it printed no address within ${o.startTimeoutMs / 1000} s`));
      child.kill('SIGKILL');
    }, o.startTimeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (settled) return;
      out += chunk;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const endpoint = parseEndpointLine(out.slice(0, nl), o.token);
        out = out.slice(nl + 1);
        if (endpoint !== undefined) return settle(endpoint);
      }
    });
    child.once('error', (error) => settle(failure(`it could not be run (${error.message})`)));
    // 'exit' can come before the last stderr bytes are read: wait for them, briefly, so the error
    // carries the engine's own explanation.
    void exited.then(async ({ code, signal }) => {
      await stderrDrained(STDERR_GRACE_MS);
      settle(failure(`it exited (${signal ?? `code ${code}`}) before printing its address`));
    });
  });
  // A caller that only waits for `exited` must not see an unhandled rejection.
  ready.catch(() => {});

  return {
    pid: child.pid,
    ready,
    exited,
    hasExited: () => exit !== undefined,
    kill: (signal) => {
      if (exit === undefined) child.kill(signal);
    },
  };
}
