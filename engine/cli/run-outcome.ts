// How a run's state becomes the exit code and the printed outcome of run, resume, revise, fork.
import type { RunState } from '../../shared/definition/names.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_WAITING } from './exit-codes.ts';

export function exitCodeOf(state: RunState): number {
  if (state === 'succeeded') return EXIT_OK;
  if (state === 'waiting' || state === 'needs_attention' || state === 'paused') return EXIT_WAITING;
  return EXIT_FAILED;
}

/** `extra` adds fields to the JSON form (after runId and state, which every command prints). */
export function printRunOutcome(io: CliIo, runId: string, state: RunState, json: boolean, extra: Record<string, unknown> = {}): number {
  if (json) io.stdout.write(`${JSON.stringify({ runId, state, ...extra })}\n`);
  else io.stdout.write(`run ${runId}: ${state}\n`);
  return exitCodeOf(state);
}
