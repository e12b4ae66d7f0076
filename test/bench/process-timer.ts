// Times one child process from spawn to exit: its wall time, and (on Linux) the CPU time it
// used, which a busy shared machine inflates far less than wall time. The CPU figure comes from
// this process's cutime/cstime in /proc/self/stat (children reaped so far), so processes timed
// this way must run one at a time; a child left running meanwhile (a server) counts only when
// it exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessSample {
  ms: number;
  /** user + system CPU of the child and its reaped children; undefined where /proc is missing. */
  cpuMs: number | undefined;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Linux reports /proc times in USER_HZ, 100 per second on every architecture Node runs on. */
const USER_HZ = 100;

function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the ")" that closes the command name start at field 3; cutime and cstime are 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/** Runs `node ARGS` (this Node) in `cwd` with `env` added to ours, and times it. */
export async function timeNode(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<ProcessSample> {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const ms = performance.now() - start;
  const cpuAfter = childrenCpuMs();
  return { ms, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, code, stdout, stderr };
}
