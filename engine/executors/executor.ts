// The contract between the runtime and the code that does a step's work. An executor does the
// work of ONE attempt and reports what happened; it never retries, routes or decides anything
// else (principle 1). The runtime owns timeouts: it aborts `signal` when the attempt's time is up.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { AttemptMeta } from '../../shared/events/attempt-meta.ts';
import type { AttemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import type { PartialSoFar } from '../../shared/run/partial-so-far.ts';

export type { PartialSoFar } from '../../shared/run/partial-so-far.ts';

/** The default cap on what one attempt may produce: command stdout, script output, an http or provider reply. */
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;

export interface AttemptContext {
  runId: string;
  stepId: string;
  activation: number;
  attempt: number;
  /**
   * The attempt's place among those that count (1, then one more per retry): an attempt run again
   * after an engine restart has the number of the one it replaces. Retry variants and the mock
   * provider's replies follow it. Absent: the same as `attempt`.
   */
  countedAttempt?: number;
  /**
   * An agent step with candidates: the candidate this attempt runs on (its provider, model and mock
   * replies are already in `config`) and which use of it this is in the activation (1, 2, ...),
   * which picks the mock provider's reply. Absent when the step has no candidates.
   */
  candidate?: { id: string; use: number };
  /**
   * The step's latest partial attempt since it last succeeded (docs/long-running.md#partial-completion):
   * its id, the part it did and what it said remains, so this attempt continues instead of
   * starting over. Absent when there is none.
   */
  partial?: PartialSoFar;
  /** The resolved input of this attempt (the step's `input` expression, evaluated). */
  input: unknown;
  /** The step's config with this attempt's retry variant merged in. */
  config: Record<string, unknown>;
  step: Step;
  /** Evaluated once per activation for steps that declare `idempotencyKey`. */
  idempotencyKey: string | undefined;
  /** Aborted on timeout, cancellation or engine shutdown; executors must stop promptly. */
  signal: AbortSignal;
  /** Folder of the workflow file: relative module paths and working directories resolve here. */
  workspaceDir: string;
  /**
   * Evaluates definition text against the run context {input (the run input), steps, run}: a
   * `{{ expression }}` template (prompts, URLs, headers) or a JSONata expression (an http body).
   */
  expressions: {
    render(template: string): Promise<string>;
    evaluate(expression: string): Promise<unknown>;
  };
}

export type AttemptResult =
  | { outcome: 'succeeded'; output: unknown; meta?: AttemptMeta }
  | {
      outcome: 'failed';
      code: AttemptErrorCode;
      message: string;
      /** false: do not retry whatever the policy says (for example a malformed module path). */
      retryable?: boolean;
      /** Anything the work produced before failing, kept as evidence. */
      output?: unknown;
      meta?: AttemptMeta;
    }
  | { outcome: 'unknown'; reason: string; meta?: AttemptMeta }
  /** Part of the work is done (`output`); `remaining` says what is left, for the attempt that continues. */
  | { outcome: 'partial'; output: unknown; remaining?: unknown; meta?: AttemptMeta };


export interface Executor {
  execute(ctx: AttemptContext): Promise<AttemptResult>;
  /** Releases what the executor keeps between attempts (warm processes); called on engine close. */
  close?(): void;
}
