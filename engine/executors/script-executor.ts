// The `script` executor: calls an exported function of a JS/TS module in the workspace for one
// attempt, isolated in a runner process (script-runner.ts) so that user code can neither crash
// nor block the engine. The function is called as `fn(input, { runId, stepId, activation,
// attempt, idempotencyKey, partial?, signal })` and what it returns (or resolves to) is the output,
// or a `$partial` report of the part done (partial-result.ts; `partial` is the one it continues). Runners
// start with the same minimal environment as commands (inherited-env.ts): provider keys and
// other secrets of the engine do not reach scripts. Warm runners are reused between attempts
// (script-runner-pool.ts); call `close()` when the engine shuts down.
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScriptConfig } from '../../shared/definition/step-config.ts';
import { attemptErrorCode } from '../../shared/events/attempt-error-codes.ts';
import { invalidConfigResult } from './config-error.ts';
import { partialFromValue } from './partial-result.ts';
import { DEFAULT_MAX_RESULT_BYTES, type AttemptContext, type AttemptResult, type Executor } from './executor.ts';
import { inheritedEnv } from './inherited-env.ts';
import { inputJson } from './input-json.ts';
import { abortedResult, crashedResult, notStartedResult } from './interrupted-result.ts';
import { realSchedule, type Schedule } from './schedule.ts';
import { ScriptRunnerPool } from './script-runner-pool.ts';
import { RunnerProcess, type RunnerOutcome } from './script-runner-process.ts';
import type { RunRequest } from './script-runner-protocol.ts';

export interface ScriptExecutorOptions {
  /** Time between the abort message and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Largest output accepted, as JSON text (default 16 MiB). */
  maxOutputBytes?: number;
  /** How much of the runner's console output goes into crash messages (default 2048 bytes). */
  logTailBytes?: number;
  /** Warm runners kept idle (default 2; 0 starts a fresh process for every attempt). */
  maxIdleRunners?: number;
  /** How long an idle runner is kept (default 60 s). */
  idleRunnerMs?: number;
  /** Attempts one runner serves before it is replaced (default 1000). */
  maxUsesPerRunner?: number;
  /** Where the inherited variables come from (default process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  schedule?: Schedule;
}

// Beside this module: the TypeScript runner under tsx, or dist/script-runner.js in the bundled CLI.
const RUNNER_PATH = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './script-runner.ts' : './script-runner.js', import.meta.url));

export class ScriptExecutor implements Executor {
  private readonly pool: ScriptRunnerPool;
  private readonly maxOutputBytes: number;
  private readonly maxRunnerSwaps: number;

  constructor(options: ScriptExecutorOptions = {}) {
    const schedule = options.schedule ?? realSchedule;
    const env = inheritedEnv(options.environment ?? process.env);
    const tsxLoaderUrl = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const maxIdle = options.maxIdleRunners ?? 2;
    this.maxRunnerSwaps = maxIdle + 1;
    this.pool = new ScriptRunnerPool({
      maxIdle,
      idleMs: options.idleRunnerMs ?? 60_000,
      maxUses: options.maxUsesPerRunner ?? 1000,
      schedule,
      start: (cwd) =>
        new RunnerProcess({
          cwd,
          runnerPath: RUNNER_PATH,
          tsxLoaderUrl,
          env,
          killGraceMs: options.killGraceMs ?? 2000,
          logTailBytes: options.logTailBytes ?? 2048,
          schedule,
        }),
    });
  }

  async execute(ctx: AttemptContext): Promise<AttemptResult> {
    const parsed = ScriptConfig.safeParse(ctx.config);
    if (!parsed.success) return invalidConfigResult(ctx.stepId, 'script', parsed.error);
    const exportName = parsed.data.export ?? 'default';
    if (ctx.signal.aborted) return notStartedResult(ctx.signal);

    const modulePath = resolve(ctx.workspaceDir, parsed.data.module);
    const missing = await moduleProblem(modulePath);
    if (missing !== undefined) {
      return {
        outcome: 'failed',
        code: 'script_not_found',
        message: `script module ${JSON.stringify(parsed.data.module)} (export "${exportName}") not found: ${modulePath} ${missing}; config.module is relative to the workflow folder ${ctx.workspaceDir}`,
        retryable: false,
      };
    }
    const input = inputJson(ctx.stepId, ctx.input ?? null);
    if (!input.ok) return { outcome: 'failed', code: input.code, message: input.message, retryable: false };
    const context: RunRequest['context'] = { runId: ctx.runId, stepId: ctx.stepId, activation: ctx.activation, attempt: ctx.attempt };
    if (ctx.idempotencyKey !== undefined) context.idempotencyKey = ctx.idempotencyKey;
    const request: RunRequest = {
      type: 'run',
      modulePath,
      exportName,
      inputJson: input.json,
      cwd: ctx.workspaceDir,
      context,
      ...(ctx.partial === undefined ? {} : { partialJson: JSON.stringify(ctx.partial) }),
      maxOutputBytes: this.maxOutputBytes,
    };

    // A warm runner may turn out stale (a loaded file changed) or dead before it started the
    // script; nothing ran, so another runner takes the attempt. A fresh runner is never stale.
    for (let swaps = 0; ; swaps++) {
      const { runner, fresh } = this.pool.acquire(ctx.workspaceDir, modulePath);
      runner.setKeepAlive(true);
      const outcome = await runner.run(request, ctx.signal);
      const nothingRan = outcome.kind === 'stale' || (outcome.kind === 'crashed' && !outcome.accepted);
      if (nothingRan && !fresh && swaps < this.maxRunnerSwaps) {
        runner.kill();
        if (ctx.signal.aborted) return notStartedResult(ctx.signal);
        continue;
      }
      const reusable = outcome.kind === 'result' && (outcome.message.type === 'succeeded' || outcome.message.reusable);
      if (reusable) runner.modules.add(modulePath);
      this.pool.release(runner, reusable);
      return toResult(outcome, ctx, exportName);
    }
  }

  /** Stops idle runners. Attempts still running finish (or are aborted by their signal). */
  close(): void {
    this.pool.close();
  }
}

function toResult(outcome: RunnerOutcome, ctx: AttemptContext, exportName: string): AttemptResult {
  switch (outcome.kind) {
    case 'result': {
      const m = outcome.message;
      if (m.type === 'succeeded') {
        const output: unknown = JSON.parse(m.outputJson);
        return partialFromValue(output, `export "${exportName}"`) ?? { outcome: 'succeeded', output };
      }
      const failed: AttemptResult = { outcome: 'failed', code: attemptErrorCode(m.code), message: m.message };
      if (m.retryable !== undefined) failed.retryable = m.retryable;
      return failed;
    }
    case 'aborted':
      return abortedResult(ctx.step, ctx.signal);
    case 'stale':
      // Only a fresh runner gets here, and a fresh runner has loaded nothing: a bug, not a user error.
      return { outcome: 'failed', code: 'script_crashed', message: `the script runner reported ${outcome.file} as changed before loading anything` };
    case 'crashed': {
      const how = outcome.signal !== null ? `was killed by signal ${outcome.signal}` : `exited with code ${outcome.exitCode ?? 'unknown'}`;
      const tail = outcome.logTail === '' ? ' (it printed nothing)' : `; its output ends with:\n${outcome.logTail}`;
      if (!outcome.accepted) {
        // The script's code never ran, so no effect can have happened.
        return { outcome: 'failed', code: 'script_crashed', message: `the script runner ${how} before it started export "${exportName}"${tail}` };
      }
      return crashedResult(ctx.step, 'script_crashed', `the script process ${how} before export "${exportName}" returned${tail}`);
    }
  }
}

async function moduleProblem(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isFile() ? undefined : 'is not a file';
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code || 'error'})`;
  }
}
