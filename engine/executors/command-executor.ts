// The `command` executor: runs a local program for one attempt. The program gets the step's
// input as one line of JSON on stdin and answers with JSON on stdout; its exit code says how it
// went (see command-exit-result.ts). It runs without a shell, in its own process group, with a
// minimal environment: only PATH, HOME, LANG, TMPDIR and SYSTEMROOT are inherited from the
// engine (inherited-env.ts), so provider keys and other secrets in the engine's environment never
// reach it; `config.env` adds variables, and WEFT_RUN_ID, WEFT_STEP_ID, WEFT_ACTIVATION,
// WEFT_ATTEMPT and WEFT_IDEMPOTENCY_KEY (when the step has one) identify the attempt;
// WEFT_PARTIAL carries the partial attempt it continues (docs/long-running.md#partial-completion).
// argv[0] without a slash is looked up on that PATH; with one, it is relative to the working
// directory, like in a shell. A command's misbehaviour is always a result, never a throw.
import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CommandConfig } from '../../shared/definition/step-config.ts';
import { commandExitResult } from './command-exit-result.ts';
import { superviseCommand } from './command-process.ts';
import { invalidConfigResult } from './config-error.ts';
import { DEFAULT_MAX_RESULT_BYTES, type AttemptContext, type AttemptResult, type Executor } from './executor.ts';
import { inheritedEnv } from './inherited-env.ts';
import { inputJson } from './input-json.ts';
import { abortedResult, notStartedResult } from './interrupted-result.ts';
import { realSchedule, type Schedule } from './schedule.ts';

export interface CommandExecutorOptions {
  /** Time between SIGTERM and SIGKILL when an attempt is aborted (default 2000 ms). */
  killGraceMs?: number;
  /** Largest stdout accepted (default 16 MiB); more fails the attempt with `output_too_large`. */
  maxOutputBytes?: number;
  /** How much of the end of stderr goes into error messages (default 2048 bytes). */
  stderrTailBytes?: number;
  /** Where the inherited variables come from (default process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  schedule?: Schedule;
}

export class CommandExecutor implements Executor {
  private readonly killGraceMs: number;
  private readonly maxOutputBytes: number;
  private readonly stderrTailBytes: number;
  private readonly environment: Readonly<Record<string, string | undefined>>;
  private readonly schedule: Schedule;

  constructor(options: CommandExecutorOptions = {}) {
    this.killGraceMs = options.killGraceMs ?? 2000;
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_RESULT_BYTES;
    this.stderrTailBytes = options.stderrTailBytes ?? 2048;
    this.environment = options.environment ?? process.env;
    this.schedule = options.schedule ?? realSchedule;
  }

  async execute(ctx: AttemptContext): Promise<AttemptResult> {
    const parsed = CommandConfig.safeParse(ctx.config);
    if (!parsed.success) return invalidConfigResult(ctx.stepId, 'command', parsed.error);
    const config = parsed.data;
    const program = config.argv[0];
    if (program === undefined) return spawnFailed('config.argv is empty: give at least the program to run');
    const args = config.argv.slice(1);
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);

    const cwd = resolve(ctx.workspaceDir, config.cwd ?? '.');
    const cwdProblem = await directoryProblem(cwd);
    if (cwdProblem !== undefined) {
      return spawnFailed(`cannot run ${JSON.stringify(program)}: working directory ${cwd} ${cwdProblem} (config.cwd is relative to the workflow folder ${ctx.workspaceDir})`);
    }
    const input = inputJson(ctx.stepId, ctx.input ?? null);
    if (!input.ok) return { outcome: 'failed', code: input.code, message: input.message, retryable: false };
    const stdin = `${input.json}\n`;
    const partial = partialEnv(ctx);
    if (partial !== undefined && !partial.ok) return { outcome: 'failed', code: 'invalid_partial', message: partial.message, retryable: false };

    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        cwd,
        env: this.commandEnv(ctx, config.env, partial?.json),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      // Synchronous refusals, such as a NUL byte in an argument.
      return spawnFailed(`cannot run ${JSON.stringify(program)} in ${cwd}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const end = await superviseCommand(child, {
      stdin,
      signal: ctx.signal,
      killGraceMs: this.killGraceMs,
      maxOutputBytes: this.maxOutputBytes,
      stderrTailBytes: this.stderrTailBytes,
      schedule: this.schedule,
    });
    if (end.kind === 'spawn_error') return spawnFailed(describeSpawnError(program, cwd, end.error));
    if (end.kind === 'aborted') {
      const detail = end.stderrTail === '' ? '' : `; stderr ends with:\n${end.stderrTail}`;
      return abortedResult(ctx.step, ctx.signal, detail);
    }
    return commandExitResult({
      program,
      exitCode: end.exitCode,
      signal: end.signal,
      stdout: end.stdout,
      maxOutputBytes: this.maxOutputBytes,
      stderrTail: end.stderrTail,
      exitCodes: config.exitCodes,
      step: ctx.step,
    });
  }

  private commandEnv(ctx: AttemptContext, extra: Record<string, string> | undefined, partial: string | undefined): Record<string, string> {
    const env: Record<string, string> = { ...inheritedEnv(this.environment), ...extra };
    // Set last: the attempt's identity is the engine's to state, not the definition's.
    env['WEFT_RUN_ID'] = ctx.runId;
    env['WEFT_STEP_ID'] = ctx.stepId;
    env['WEFT_ACTIVATION'] = String(ctx.activation);
    env['WEFT_ATTEMPT'] = String(ctx.attempt);
    if (ctx.idempotencyKey !== undefined) env['WEFT_IDEMPOTENCY_KEY'] = ctx.idempotencyKey;
    else delete env['WEFT_IDEMPOTENCY_KEY'];
    if (partial !== undefined) env['WEFT_PARTIAL'] = partial;
    else delete env['WEFT_PARTIAL'];
    return env;
  }
}

/** The largest WEFT_PARTIAL passed on (Linux refuses a single variable over 128 KiB). */
export const MAX_PARTIAL_ENV_BYTES = 100_000;

/**
 * WEFT_PARTIAL for an attempt that continues a partial one: `{"attempt","output","remaining"}` as
 * JSON; undefined when there is nothing to continue.
 */
function partialEnv(ctx: AttemptContext): { ok: true; json: string } | { ok: false; message: string } | undefined {
  if (ctx.partial === undefined) return undefined;
  const json = JSON.stringify(ctx.partial);
  const bytes = Buffer.byteLength(json);
  if (bytes <= MAX_PARTIAL_ENV_BYTES) return { ok: true, json };
  return {
    ok: false,
    message: `cannot continue attempt ${ctx.partial.attempt}: its partial output and remaining are ${bytes} bytes as JSON, more than WEFT_PARTIAL takes (${MAX_PARTIAL_ENV_BYTES}); report a reference to the part done (a file path, a cursor, ids) rather than the data itself`,
  };
}

function spawnFailed(message: string): AttemptResult {
  return { outcome: 'failed', code: 'spawn_failed', message, retryable: false };
}

async function directoryProblem(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isDirectory() ? undefined : 'is not a folder';
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'does not exist' : `cannot be read (${errorCode(error) ?? 'error'})`;
  }
}

function describeSpawnError(program: string, cwd: string, error: Error): string {
  const name = JSON.stringify(program);
  const code = errorCode(error);
  const isPath = program.includes('/') || program.includes('\\');
  if (code === 'ENOENT') {
    return isPath
      ? `cannot run ${name}: no such file (a program path is relative to the working directory ${cwd})`
      : `cannot run ${name}: no program of that name on PATH (working directory ${cwd}); install it, or give its full path in argv[0]`;
  }
  if (code === 'EACCES') {
    return `cannot run ${name} in ${cwd}: permission denied; make sure it is a file and executable (chmod +x)`;
  }
  return `cannot run ${name} in ${cwd}: ${error.message}`;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
