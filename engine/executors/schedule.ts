// Executors need wall-clock timers for a few process-level chores (the grace period between
// SIGTERM and SIGKILL, closing idle script runners). They take them through this type so the
// engine's composition root, and tests, choose the clock (engine code never calls setTimeout
// itself, so tests can run it in virtual time); only `realSchedule` touches the global timer
// functions.

export interface ScheduledTimer {
  cancel(): void;
}

/** Runs `fn` once after `ms`. `keepAlive: false` lets the engine process exit while it waits. */
export type Schedule = (fn: () => void, ms: number, options?: { keepAlive?: boolean }) => ScheduledTimer;

export const realSchedule: Schedule = (fn, ms, options) => {
  const timer = setTimeout(fn, ms);
  if (options?.keepAlive === false) timer.unref();
  return { cancel: () => clearTimeout(timer) };
};
