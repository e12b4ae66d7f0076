// The script executor with real runner processes: TypeScript modules, thrown errors, missing
// modules and exports, aborts, crashes, console output, and warm runners that never run stale code.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { overrideEnv } from '../../env-override.ts';
import type { AttemptResult } from '../../../engine/executors/executor.ts';
import { ScriptExecutor } from '../../../engine/executors/script-executor.ts';
import { isRunning, readJsonFile, scriptContext, tempWorkspace, waitFor, type ContextOptions } from './attempt-context.ts';
import { WAIT_BOUND_MS } from '../../wait-until.ts';

const workspace = tempWorkspace();
const write = (name: string, text: string): void => writeFileSync(join(workspace, name), text);

write('helper.ts', 'export const factor: number = 2;\n');
write(
  'mod.ts',
  `import { factor } from './helper.ts';
import { writeFileSync } from 'node:fs';

interface Context { runId: string; stepId: string; attempt: number; idempotencyKey?: string; signal: AbortSignal }

export default async function double(input: { n: number }, ctx: Context) {
  console.log('logging on stdout does not matter');
  console.error('nor on stderr');
  return { n: input.n * factor, runId: ctx.runId, stepId: ctx.stepId, attempt: ctx.attempt, key: ctx.idempotencyKey ?? null, cwd: process.cwd(), pid: process.pid };
}

export function coded(): never {
  throw Object.assign(new Error('customer 42 does not exist'), { code: 'not_found' });
}

export function permanent(): never {
  throw Object.assign(new Error('the record is locked for good'), { code: 'locked', retryable: false });
}

export function plain(): never {
  throw new TypeError('cannot read the thing');
}

export const VERSION = 3;

export function crash(): void {
  process.exit(3);
}

export function bigint() {
  return { n: 10n };
}

export function secret() {
  return process.env['WEFT_TEST_SECRET'] ?? null;
}

// Ignores its abort signal: only SIGKILL stops it.
export async function stubborn(input: { pidFile: string }) {
  writeFileSync(input.pidFile, JSON.stringify({ pid: process.pid }));
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}

// Stops when asked, as a good script should.
export async function polite(input: { pidFile: string }, ctx: Context) {
  writeFileSync(input.pidFile, JSON.stringify({ pid: process.pid }));
  await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
}
`,
);

const executor = new ScriptExecutor({ killGraceMs: 500 });
afterAll(() => executor.close());

function run(config: Record<string, unknown>, extra: Partial<ContextOptions> = {}): Promise<AttemptResult> {
  return executor.execute(scriptContext({ config, workspaceDir: workspace, ...extra }));
}

function output(result: AttemptResult): Record<string, unknown> {
  if (result.outcome !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.output as Record<string, unknown>;
}

describe('script executor: results', () => {
  it('runs a TypeScript module and returns its output, whatever it logs', async () => {
    const result = await run({ module: 'mod.ts' }, { input: { n: 21 }, idempotencyKey: 'order-7', attempt: 2 });
    expect(output(result)).toMatchObject({ n: 42, runId: 'run_1', stepId: 'work', attempt: 2, key: 'order-7', cwd: workspace });
    expect(output(result)['pid']).not.toBe(process.pid);
  });

  it('uses error.code as the failure code, without the stack but with the place', async () => {
    const result = await run({ module: 'mod.ts', export: 'coded' });
    expect(result).toEqual({ outcome: 'failed', code: 'not_found', message: 'customer 42 does not exist (at mod.ts:13:23)' });
  });

  it('keeps retryable: false from the error', async () => {
    expect(await run({ module: 'mod.ts', export: 'permanent' })).toMatchObject({ outcome: 'failed', code: 'locked', retryable: false });
  });

  it('uses script_error for an error without a code', async () => {
    const result = await run({ module: 'mod.ts', export: 'plain' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'script_error' });
    if (result.outcome === 'failed') expect(result.message).not.toContain('\n');
  });

  it('fails with output_not_serialisable for a value JSON cannot hold', async () => {
    expect(await run({ module: 'mod.ts', export: 'bigint' })).toMatchObject({ outcome: 'failed', code: 'output_not_serialisable', retryable: false });
  });

  it('does not pass the engine environment to scripts', async () => {
    onTestFinished(overrideEnv({ WEFT_TEST_SECRET: 'sk-do-not-leak' }));
    expect(await run({ module: 'mod.ts', export: 'secret' })).toEqual({ outcome: 'succeeded', output: null });
  });
});

describe('script executor: missing modules and exports', () => {
  it('fails with script_not_found, not retryable, naming the path and the export', async () => {
    const result = await run({ module: 'scripts/nope.ts', export: 'score' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'script_not_found', retryable: false });
    if (result.outcome !== 'failed') return;
    expect(result.message).toContain(join(workspace, 'scripts/nope.ts'));
    expect(result.message).toContain('"score"');
  });

  it('fails with export_not_found, not retryable, listing the exports', async () => {
    const result = await run({ module: 'mod.ts', export: 'scoreLead' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'export_not_found', retryable: false });
    if (result.outcome !== 'failed') return;
    expect(result.message).toContain('mod.ts has no export named "scoreLead"');
    expect(result.message).toContain('VERSION, bigint (function), coded (function), crash (function), default (function)');
  });

  it('says so when the export is not a function', async () => {
    const result = await run({ module: 'mod.ts', export: 'VERSION' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'export_not_found' });
    if (result.outcome === 'failed') expect(result.message).toContain('export "VERSION" of mod.ts is a number, not a function');
  });

  it('fails with script_load_failed, not retryable, for a syntax error', async () => {
    write('broken.ts', 'export default function (\n');
    const result = await run({ module: 'broken.ts' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'script_load_failed', retryable: false });
    if (result.outcome === 'failed') expect(result.message).toContain('broken.ts:2');
  });
});

describe('script executor: aborts and crashes', () => {
  async function start(exportName: string, effect: 'none' | 'external') {
    const pidFile = join(tempWorkspace(), 'pid.json');
    const controller = new AbortController();
    const pending = run({ module: 'mod.ts', export: exportName }, { input: { pidFile }, effect, signal: controller.signal });
    const { pid } = await waitFor('the script to start', () => readJsonFile<{ pid: number }>(pidFile));
    return { pid, controller, pending };
  }

  it('kills a script that ignores the abort and fails with aborted', async () => {
    const { pid, controller, pending } = await start('stubborn', 'none');
    controller.abort(new Error('timed out after 1000 ms'));
    expect(await pending).toEqual({ outcome: 'failed', code: 'aborted', message: 'aborted: timed out after 1000 ms', retryable: true });
    expect(isRunning(pid)).toBe(false);
  });

  it('reports unknown for an aborted script with an external effect', async () => {
    const { pid, controller, pending } = await start('polite', 'external');
    controller.abort('cancelled by operator');
    expect(await pending).toEqual({ outcome: 'unknown', reason: 'aborted: cancelled by operator' });
    expect(isRunning(pid)).toBe(false);
  });

  it('fails with script_crashed when the script exits the process', async () => {
    const result = await run({ module: 'mod.ts', export: 'crash' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'script_crashed' });
    if (result.outcome === 'failed') expect(result.message).toContain('exited with code 3');
  });

  it('reports unknown when an external script crashes', async () => {
    expect((await run({ module: 'mod.ts', export: 'crash' }, { effect: 'external' })).outcome).toBe('unknown');
  });
});

describe('script executor: warm runners', () => {
  afterEach(() => write('helper.ts', 'export const factor: number = 2;\n'));

  it('reuses a runner for the next attempt', async () => {
    const first = output(await run({ module: 'mod.ts' }));
    const second = output(await run({ module: 'mod.ts' }));
    expect(second['pid']).toBe(first['pid']);
  });

  it('never runs stale code: a changed import means a fresh runner', async () => {
    const before = output(await run({ module: 'mod.ts' }, { input: { n: 5 } }));
    write('helper.ts', 'export const factor: number = 3; // edited\n');
    const after = output(await run({ module: 'mod.ts' }, { input: { n: 5 } }));
    expect(before['n']).toBe(10);
    expect(after['n']).toBe(15);
    expect(after['pid']).not.toBe(before['pid']);
  });

  it('does not reuse a runner after an abort', async () => {
    const controller = new AbortController();
    const before = output(await run({ module: 'mod.ts' }));
    const pidFile = join(tempWorkspace(), 'pid.json');
    const pending = run({ module: 'mod.ts', export: 'polite' }, { input: { pidFile }, signal: controller.signal });
    const { pid } = await waitFor('the script to start', () => readJsonFile<{ pid: number }>(pidFile));
    expect(pid).toBe(before['pid']);
    controller.abort('stop');
    await pending;
    expect(output(await run({ module: 'mod.ts' }))['pid']).not.toBe(pid);
  });

  it('starts a fresh process for every attempt with maxIdleRunners: 0', async () => {
    const cold = new ScriptExecutor({ maxIdleRunners: 0 });
    const ctx = () => scriptContext({ config: { module: 'mod.ts' }, workspaceDir: workspace });
    const first = output(await cold.execute(ctx()));
    const second = output(await cold.execute(ctx()));
    expect(second['pid']).not.toBe(first['pid']);
    expect(isRunning(Number(first['pid']))).toBe(false);
  });

  it('does not keep the engine process alive, and idle runners leave with it', () => {
    write('pid.ts', 'export default () => process.pid;\n');
    const driver = fileURLToPath(new URL('../../fixtures/executors/drive-script-executor.ts', import.meta.url));
    // The bound only stops a driver the engine kept alive (the failure this test is about).
    const done = spawnSync(process.execPath, ['--import', 'tsx', driver, workspace, 'pid.ts'], { encoding: 'utf8', timeout: WAIT_BOUND_MS });
    expect(done.status).toBe(0);
    const result = JSON.parse(done.stdout) as AttemptResult;
    expect(result.outcome).toBe('succeeded');
    return waitFor('the idle runner to exit', () => (result.outcome === 'succeeded' && !isRunning(Number(result.output)) ? true : undefined));
  });
});
