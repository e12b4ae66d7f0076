// Times one child process from spawn to exit: its wall time, and the CPU time it used, which a
// busy shared machine inflates far less than wall time. The child's own CPU time (user + system,
// from getrusage, to the microsecond) is reported by the child itself at exit through a pipe on
// fd 3, written by report-cpu.cjs, which the timer preloads with --require. Its children's CPU
// (a command step's process, a script runner) is counted too, from this process's
// cutime/cstime in /proc/self/stat (children reaped so far, in 10 ms ticks): processes timed
// this way must run one at a time, and a child left running meanwhile (a server) counts only
// when it exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ProcessSample {
  ms: number;
  /**
   * user + system CPU of the child (to the microsecond) and of the processes it started and
   * waited for (in 10 ms ticks; none in the CLI benchmark's cases); undefined where unknown.
   */
  cpuMs: number | undefined;
  code: number | null;
  stdout: string;
  stderr: string;
}

const REPORT_CPU = fileURLToPath(new URL('./report-cpu.cjs', import.meta.url));

/** Linux reports /proc times in USER_HZ, 100 per second on every architecture Node runs on. */
const USER_HZ = 100;

/** CPU ms of this process's reaped children, in ticks; undefined where /proc is missing. */
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

/**
 * CPU ms of the child and its own children: its report, plus what /proc counted beyond the
 * child's share (the child itself is in /proc's figure too, rounded to ticks).
 */
function cpuOf(reportedUs: number | undefined, procMs: number | undefined): number | undefined {
  if (reportedUs === undefined) return procMs;
  const ownMs = reportedUs / 1000;
  // Ticks round each process's time; a difference under two ticks is the child's own rounding.
  const beyond = procMs === undefined ? 0 : procMs - ownMs;
  return beyond >= 20 ? ownMs + beyond : ownMs;
}

/** Runs `node ARGS` (this Node) in `cwd` with `env` added to ours, and times it. */
export async function timeNode(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<ProcessSample> {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const child = spawn(process.execPath, ['--require', REPORT_CPU, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let report = '';
  const [, out, err, fd3] = child.stdio;
  out?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  err?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (fd3 !== null && fd3 !== undefined && 'setEncoding' in fd3) fd3.setEncoding('utf8').on('data', (d: string) => (report += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const ms = performance.now() - start;
  const cpuAfter = childrenCpuMs();
  const reportedUs = /^\d+\n$/.test(report) ? Number(report) : undefined;
  return { ms, cpuMs: cpuOf(reportedUs, cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore), code, stdout, stderr };
}
