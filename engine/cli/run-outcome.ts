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
  io.stdout.write(runOutcomeLine(runId, state, json, extra));
  return exitCodeOf(state);
}

/** The line printRunOutcome prints, newline included: for a command that reports many runs in one write. */
export function runOutcomeLine(runId: string, state: RunState, json: boolean, extra: Record<string, unknown> = {}): string {
  return json ? `${JSON.stringify({ runId, state, ...extra })}\n` : `run ${runId}: ${state}\n`;
}
