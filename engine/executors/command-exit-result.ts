// How a finished command becomes an attempt result: its exit code (through `config.exitCodes`),
// a signal that killed it, and the JSON it printed (a $partial report: partial-result.ts). Pure, so every mapping is tested without
// starting processes.
import type { z } from 'zod';
import { attemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import type { CommandConfig } from '../../shared/definition/step-config.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptResult } from './executor.ts';
import { crashedResult } from './interrupted-result.ts';
import { parseJsonOutput } from './json-output.ts';
import { partialFromValue } from './partial-result.ts';

export interface FinishedCommand {
  /** argv[0] as written in the definition, for messages. */
  program: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Everything printed on stdout, or 'too_large' when it passed the cap. */
  stdout: Buffer | 'too_large';
  maxOutputBytes: number;
  stderrTail: string;
  exitCodes: z.infer<typeof CommandConfig>['exitCodes'];
  step: Step;
}

export function commandExitResult(done: FinishedCommand): AttemptResult {
  const who = JSON.stringify(done.program);
  const stderr = stderrSuffix(done.stderrTail);
  if (done.exitCode === null) {
    // Not our signal: ours is handled by the abort path before this is reached.
    return crashedResult(done.step, 'killed_by_signal', `${who} was killed by signal ${done.signal ?? 'unknown'}${stderr}`);
  }
  const code = done.exitCode;
  const mapping = done.exitCodes?.[String(code)];
  const outcome = mapping?.outcome ?? (code === 0 ? 'succeeded' : 'failed');
  if (outcome === 'unknown') {
    return { outcome: 'unknown', reason: `${who} exited with code ${code}, which exitCodes maps to unknown${stderr}` };
  }
  if (outcome === 'failed') {
    const evidence = done.stdout === 'too_large' ? undefined : parseJsonOutput(done.stdout);
    const result: AttemptResult = {
      outcome: 'failed',
      code: mapping?.code === undefined ? `exit_${code}` : attemptErrorCode(mapping.code),
      message: `${who} exited with code ${code}${stderr}`,
    };
    // Whatever JSON it printed before failing is kept as evidence.
    if (evidence?.ok === true && evidence.value !== null) result.output = evidence.value;
    return result;
  }
  if (done.stdout === 'too_large') {
    return {
      outcome: 'failed',
      code: 'output_too_large',
      message: `${who} printed more than ${done.maxOutputBytes} bytes on stdout; write large results to a file and print its path instead`,
      retryable: false,
    };
  }
  const parsed = parseJsonOutput(done.stdout);
  if (!parsed.ok) {
    return {
      outcome: 'failed',
      code: 'invalid_json_output',
      message: `${who} exited with code ${code} but its ${parsed.message}`,
      retryable: true,
    };
  }
  // A $partial report on stdout (any exit code that succeeds or is mapped to partial) ends the
  // attempt partial; an exit code mapped to partial makes plain stdout the part done.
  const partial = partialFromValue(parsed.value, `${who} (stdout)`);
  if (partial !== undefined) return partial;
  if (outcome === 'partial') return { outcome: 'partial', output: parsed.value };
  return { outcome: 'succeeded', output: parsed.value };
}

function stderrSuffix(tail: string): string {
  return tail === '' ? ' (stderr was empty)' : `; stderr ends with:\n${tail}`;
}
