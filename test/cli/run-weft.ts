// Runs the real `weft` binary in a child process, the way users and CI scripts do, so tests
// see exactly the exit code and the bytes on stdout and stderr.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WAIT_BOUND_MS } from '../wait-until.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/weft.js', import.meta.url));

export interface WeftResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Bounds a hung child (it is killed and the promise rejects); test/wait-until.ts's WAIT_BOUND_MS unless given. */
  timeoutMs?: number;
  /** Variables added to this process's environment for the child. */
  env?: Record<string, string>;
  /** Run the child as this user (and group): root can write anywhere, so a test drops it. */
  uid?: number;
}

export function runWeft(args: readonly string[], cwd: string = REPO_ROOT, { timeoutMs = WAIT_BOUND_MS, env, uid }: RunOptions = {}): Promise<WeftResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', ...(env === undefined ? {} : { env: { ...process.env, ...env } }), ...(uid === undefined ? {} : { uid, gid: uid }) },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`weft ${args.join(' ')} did not exit normally (${error.signal ?? error.message})\n${stderr}`));
          return;
        }
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
  });
}

/** A stack trace line as Node prints it; user errors must never show one. */
export const STACK_LINE = '    at ';
