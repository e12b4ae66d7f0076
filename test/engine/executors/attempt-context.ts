// Test helpers for executors: an attempt context around a fake step, a temporary workspace,
// and process checks that wait for state instead of sleeping for a fixed time.
import { expressionsOver } from '../../../engine/runtime/expressions.ts';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttemptContext, AttemptResult } from '../../../engine/executors/executor.ts';
import { procStat } from '../../../engine/executors/process-group.ts';
import type { Step } from '../../../shared/definition/workflow-schema.ts';
import { waitFor as waitForValue } from '../../wait-until.ts';

export interface ContextOptions {
  config: Record<string, unknown>;
  workspaceDir: string;
  effect?: 'none' | 'idempotent' | 'external';
  input?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  attempt?: number;
}

export function commandContext(options: ContextOptions): AttemptContext {
  return context({ id: 'work', kind: 'command', config: { argv: ['true'] } }, options);
}

export function scriptContext(options: ContextOptions): AttemptContext {
  return context({ id: 'work', kind: 'script', config: { module: 'mod.ts' } }, options);
}

function context(step: Step, options: ContextOptions): AttemptContext {
  if (options.effect !== undefined) step.effect = options.effect;
  return {
    runId: 'run_1',
    stepId: step.id,
    activation: 1,
    attempt: options.attempt ?? 1,
    input: options.input ?? { n: 1 },
    config: options.config,
    step,
    idempotencyKey: options.idempotencyKey,
    signal: options.signal ?? new AbortController().signal,
    workspaceDir: options.workspaceDir,
    expressions: expressionsOver({ input: options.input ?? { n: 1 }, steps: {}, run: { id: 'run_1' } }),
  };
}

/** Narrows a result to a failure, or throws with what it was instead. */
export function failed(result: AttemptResult): Extract<AttemptResult, { outcome: 'failed' }> {
  if (result.outcome !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result;
}

export function tempWorkspace(): string {
  return mkdtempSync(join(tmpdir(), 'weft-executor-'));
}

/** Running, not a zombie waiting for a slow init to reap it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = process.platform === 'linux' ? procStat(pid) : undefined;
  return stat === undefined ? process.platform !== 'linux' : stat.state !== 'Z' && stat.state !== 'X';
}

/** Polls `check` until it returns a value (not undefined); the bound only stops a broken test (test/wait-until.ts). */
export function waitFor<T>(what: string, check: () => T | undefined): Promise<T> {
  return waitForValue(check, what, { pollMs: 10 });
}

export function readJsonFile<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  return text === '' ? undefined : (JSON.parse(text) as T);
}
