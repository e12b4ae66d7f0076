// Supervises one spawned command from its first byte of input to its end: feeds stdin, collects
// stdout (capped) and the tail of stderr, and on abort stops the whole process group, politely
// (SIGTERM) and then firmly (SIGKILL after a grace period). It reports what happened; turning that
// into an attempt result is command-exit-result.ts's job.
import type { ChildProcess } from 'node:child_process';
import { groupExists, signalGroup } from './process-group.ts';
import type { Schedule, ScheduledTimer } from './schedule.ts';
import { TailBuffer } from './tail-buffer.ts';

export type CommandEnd =
  | { kind: 'exited'; exitCode: number | null; signal: NodeJS.Signals | null; stdout: Buffer | 'too_large'; stderrTail: string }
  | { kind: 'aborted'; stderrTail: string }
  | { kind: 'spawn_error'; error: Error };

export interface SuperviseOptions {
  stdin: string;
  signal: AbortSignal;
  killGraceMs: number;
  maxOutputBytes: number;
  stderrTailBytes: number;
  schedule: Schedule;
}

/** After the command exits, how long a grandchild that still holds its stdout may delay the end. */
const STREAM_GRACE_MS = 1000;
/** How often an aborted group is checked for stragglers before the SIGKILL deadline. */
const GROUP_POLL_MS = 25;

export function superviseCommand(child: ChildProcess, options: SuperviseOptions): Promise<CommandEnd> {
  const { signal, schedule } = options;
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let tooLarge = false;
    const stderr = new TailBuffer(options.stderrTailBytes);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let aborted = false;
    let killed = false;
    let settled = false;
    const timers: ScheduledTimer[] = [];

    const finish = (end: CommandEnd): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) t.cancel();
      signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(end);
    };
    const finishExited = (): void => {
      if (exit === undefined) return;
      finish({
        kind: 'exited',
        exitCode: exit.code,
        signal: exit.signal,
        stdout: tooLarge ? 'too_large' : Buffer.concat(stdout),
        stderrTail: stderr.text(),
      });
    };
    // Aborted and the leader is gone: wait for the rest of the group, up to the SIGKILL deadline.
    const finishAbortedWhenGroupGone = (): void => {
      if (settled) return;
      if (killed || !groupExists(child)) finish({ kind: 'aborted', stderrTail: stderr.text() });
      else timers.push(schedule(finishAbortedWhenGroupGone, GROUP_POLL_MS));
    };
    function onAbort(): void {
      if (exit !== undefined || settled) return; // it finished first: its own result stands
      aborted = true;
      signalGroup(child, 'SIGTERM');
      timers.push(
        schedule(() => {
          killed = true;
          signalGroup(child, 'SIGKILL');
          if (exit !== undefined) finishAbortedWhenGroupGone();
        }, options.killGraceMs),
      );
    }

    child.stdout?.on('data', (chunk: Buffer) => {
      if (tooLarge) return; // keep draining so the command is not blocked, but drop the bytes
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        tooLarge = true;
        stdout.length = 0;
      } else stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // EPIPE when the command exits without reading its input: not an error of the attempt.
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => {
      if (child.pid === undefined) finish({ kind: 'spawn_error', error });
    });
    child.on('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      if (aborted) finishAbortedWhenGroupGone();
      else timers.push(schedule(finishExited, STREAM_GRACE_MS));
    });
    child.on('close', () => {
      if (!aborted) finishExited();
    });
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    child.stdin?.end(options.stdin);
  });
}
