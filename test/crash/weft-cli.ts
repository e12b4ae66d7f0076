// Runs the real `weft` CLI (bin/weft.js) as a child process, for crash tests: either to the end,
// or detached (leader of its own process group) so that the test can kill it and its commands.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WEFT_BIN = fileURLToPath(new URL('../../bin/weft.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves when the process has exited (on its own or killed). */
  done: Promise<CliResult>;
}

/** Starts `weft ARGS` detached; `env` adds variables to this process's environment for the child. */
export function startCli(args: readonly string[], cwd: string, env?: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [WEFT_BIN, ...args], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(env === undefined ? {} : { env: { ...process.env, ...env } }) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  if (child.pid === undefined) throw new Error(`cannot start ${WEFT_BIN}`);
  return { child, pid: child.pid, done };
}

/** Runs a command to its end; throws with its output when the exit code is not one of `ok`. */
export async function runCli(args: readonly string[], cwd: string, ok: readonly number[] = [0]): Promise<CliResult> {
  const r = await startCli(args, cwd).done;
  if (r.code === null || !ok.includes(r.code)) {
    throw new Error(`weft ${args.join(' ')} exited with ${r.code ?? r.signal}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  return r;
}

/** Runs a `--json` command and parses its stdout. */
export async function cliJson<T>(args: readonly string[], cwd: string, ok: readonly number[] = [0]): Promise<T> {
  const r = await runCli([...args, '--json'], cwd, ok);
  return JSON.parse(r.stdout) as T;
}
