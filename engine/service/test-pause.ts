// A seam for crash tests with real processes: a command that reaches the named point stops there
// for good, after telling the test so in a file, and the test kills it at exactly that instant
// (test/crash/send-kill.test.ts). Without WEFT_TEST_PAUSE_AT naming the point it does nothing.
// The points: `send:event-stored` (weft send, after the event's commit, before its delivery).
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';

export type PausePoint = 'send:event-stored';

/**
 * Resolves at once unless `env.WEFT_TEST_PAUSE_AT` is `point`; then writes `{point, pid}` to
 * `env.WEFT_TEST_PAUSE_FILE` and never resolves (the process lives on until it is killed).
 *
 * @example await pauseAt('send:event-stored', env); // a no-op outside the crash tests
 */
export function pauseAt(point: PausePoint, env: NodeJS.ProcessEnv): Promise<void> {
  if (env['WEFT_TEST_PAUSE_AT'] !== point) return Promise.resolve();
  const file = env['WEFT_TEST_PAUSE_FILE'];
  if (file === undefined || file === '') throw new Error('WEFT_TEST_PAUSE_AT needs WEFT_TEST_PAUSE_FILE: the file that tells the test the pause was reached');
  // Whole or not at all: the test reads the file as soon as it appears.
  writeFileAtomic(file, JSON.stringify({ point, pid: process.pid }));
  // A timer keeps the event loop (and so the process, its lease heartbeat included) alive.
  return new Promise(() => {
    setInterval(() => {}, 60_000);
  });
}
