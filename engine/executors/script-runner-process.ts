// The engine's handle on one script runner process: starts it, hands it one attempt at a time,
// relays an abort (then SIGKILLs the process group after a grace period), and tells a result
// apart from an abort and a crash. The runner's console output is drained all the time (a full
// pipe would block it) and its tail kept for crash messages.
import { fork, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { abortReasonText } from './abort-reason.ts';
import { signalGroup } from './process-group.ts';
import { isFromRunner, type FromRunner, type RunRequest, type ToRunner } from './script-runner-protocol.ts';
import type { Schedule, ScheduledTimer } from './schedule.ts';
import { TailBuffer } from './tail-buffer.ts';

export type RunnerOutcome =
  | { kind: 'stale'; file: string }
  | { kind: 'result'; message: Extract<FromRunner, { type: 'succeeded' | 'failed' }> }
  | { kind: 'aborted' }
  /** `accepted: false`: the runner died before the script's code could run. */
  | { kind: 'crashed'; accepted: boolean; exitCode: number | null; signal: NodeJS.Signals | null; logTail: string };

export interface RunnerStartOptions {
  cwd: string;
  runnerPath: string;
  /** Absolute URL of tsx's loader, so it resolves from the engine's install whatever the cwd. */
  tsxLoaderUrl: string;
  env: Record<string, string>;
  killGraceMs: number;
  logTailBytes: number;
  schedule: Schedule;
}

/** After the runner exits, how long stragglers holding its pipes may delay the crash report. */
const CLOSE_GRACE_MS = 1000;

export class RunnerProcess {
  /** Attempts handed to this runner so far. */
  uses = 0;
  /** Modules this runner has run successfully, so an attempt of one finds its warm runner. */
  readonly modules = new Set<string>();
  private readonly child: ChildProcess;
  private readonly logs: TailBuffer;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private closed = false;
  private closeFallback: ScheduledTimer | undefined;
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly options: RunnerStartOptions) {
    this.logs = new TailBuffer(options.logTailBytes);
    this.child = fork(options.runnerPath, [], {
      cwd: options.cwd,
      env: options.env,
      execArgv: ['--import', options.tsxLoaderUrl],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: process.platform !== 'win32',
      serialization: 'json',
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.logs.push(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => this.logs.push(chunk));
    this.child.on('error', () => undefined); // reported through 'exit'/'close', or a failed send
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      // Whatever the script started dies with it; then its pipes close.
      signalGroup(this.child, 'SIGKILL');
      this.closeFallback = options.schedule(() => this.markClosed(), CLOSE_GRACE_MS);
    });
    // 'close' comes after the IPC channel has delivered everything the runner sent.
    this.child.on('close', () => this.markClosed());
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** Still able to take an attempt. */
  get alive(): boolean {
    return this.exit === undefined && !this.closed && this.child.connected;
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Idle runners must not keep the engine process alive; busy ones must. */
  setKeepAlive(keep: boolean): void {
    const handles: Array<{ ref(): void; unref(): void } | null | undefined> = [this.child, this.child.channel];
    for (const stream of [this.child.stdout, this.child.stderr]) if (stream instanceof Socket) handles.push(stream);
    for (const h of handles) {
      if (keep) h?.ref();
      else h?.unref();
    }
  }

  kill(): void {
    if (this.exit === undefined) signalGroup(this.child, 'SIGKILL');
  }

  run(request: RunRequest, signal: AbortSignal): Promise<RunnerOutcome> {
    this.uses++;
    this.logs.clear();
    return new Promise((resolve) => {
      let accepted = false;
      let aborted = false;
      let settled = false;
      let killTimer: ScheduledTimer | undefined;
      const finish = (outcome: RunnerOutcome): void => {
        if (settled) return;
        settled = true;
        killTimer?.cancel();
        signal.removeEventListener('abort', onAbort);
        this.child.off('message', onMessage);
        const at = this.closeListeners.indexOf(onClosed);
        if (at >= 0) this.closeListeners.splice(at, 1);
        resolve(outcome);
      };
      const onMessage = (message: unknown): void => {
        if (!isFromRunner(message)) return;
        if (message.type === 'accepted') accepted = true;
        else if (aborted) return; // aborted: only the process's end counts now
        else if (message.type === 'stale') finish({ kind: 'stale', file: message.file });
        else finish({ kind: 'result', message });
      };
      const onClosed = (): void => {
        if (aborted) finish({ kind: 'aborted' });
        else {
          const exit = this.exit ?? { code: null, signal: null };
          finish({ kind: 'crashed', accepted, exitCode: exit.code, signal: exit.signal, logTail: this.logs.text() });
        }
      };
      const onAbort = (): void => {
        if (settled || aborted) return;
        aborted = true;
        this.send({ type: 'abort', reason: abortReasonText(signal) });
        killTimer = this.options.schedule(() => signalGroup(this.child, 'SIGKILL'), this.options.killGraceMs);
      };
      if (this.closed) return onClosed();
      this.closeListeners.push(onClosed);
      this.child.on('message', onMessage);
      signal.addEventListener('abort', onAbort, { once: true });
      this.send(request);
      if (signal.aborted) onAbort();
    });
  }

  private send(message: ToRunner): void {
    // A closed channel means the runner is gone; its 'close' event reports that.
    if (this.child.connected) this.child.send(message, () => undefined);
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeFallback?.cancel();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
