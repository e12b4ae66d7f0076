// Starting a script runner costs about 0.3 s (Node plus tsx), far more than most scripts run, so
// runners that finished an attempt cleanly are kept warm for the next one. A runner is reused
// only in the same workflow folder (its cwd, and the tsconfig tsx found there), preferably for a
// module it already loaded; one that was aborted, crashed or failed to load a module is never
// reused. Idle runners do not keep the engine alive, close after `idleMs`, and are retired after
// `maxUses` attempts to bound leaks in long-lived user code.
import type { RunnerProcess } from './script-runner-process.ts';
import type { Schedule, ScheduledTimer } from './schedule.ts';

export interface RunnerPoolOptions {
  /** Idle runners kept at most (0: every attempt gets a fresh process). */
  maxIdle: number;
  idleMs: number;
  maxUses: number;
  schedule: Schedule;
  start: (cwd: string) => RunnerProcess;
}

interface IdleRunner {
  runner: RunnerProcess;
  timer: ScheduledTimer;
}

export class ScriptRunnerPool {
  private idle: IdleRunner[] = [];
  private closed = false;

  constructor(private readonly options: RunnerPoolOptions) {}

  /** A runner for `modulePath` in `cwd`: a warm one when there is one (`fresh: false`). */
  acquire(cwd: string, modulePath: string): { runner: RunnerProcess; fresh: boolean } {
    const usable = this.idle.filter((i) => i.runner.cwd === cwd && i.runner.alive);
    const pick = usable.findLast((i) => i.runner.modules.has(modulePath)) ?? usable.at(-1);
    if (pick !== undefined) {
      this.remove(pick);
      return { runner: pick.runner, fresh: false };
    }
    const runner = this.options.start(cwd);
    runner.onClose(() => {
      const entry = this.idle.find((i) => i.runner === runner);
      if (entry !== undefined) this.remove(entry);
    });
    return { runner, fresh: true };
  }

  /** Hands a runner back after an attempt; `reusable: false` retires it. */
  release(runner: RunnerProcess, reusable: boolean): void {
    const { maxIdle, maxUses, idleMs, schedule } = this.options;
    if (!reusable || this.closed || !runner.alive || runner.uses >= maxUses || maxIdle === 0) {
      runner.kill();
      return;
    }
    runner.setKeepAlive(false);
    const entry: IdleRunner = {
      runner,
      timer: schedule(() => this.retire(entry), idleMs, { keepAlive: false }),
    };
    this.idle.push(entry);
    while (this.idle.length > maxIdle) {
      const oldest = this.idle[0];
      if (oldest !== undefined) this.retire(oldest);
    }
  }

  /** Stops every idle runner; runners still busy are stopped when they are released. */
  close(): void {
    this.closed = true;
    for (const entry of [...this.idle]) this.retire(entry);
  }

  private retire(entry: IdleRunner): void {
    this.remove(entry);
    entry.runner.kill();
  }

  private remove(entry: IdleRunner): void {
    entry.timer.cancel();
    this.idle = this.idle.filter((i) => i !== entry);
  }
}
