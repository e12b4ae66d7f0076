// The command executor with real processes: JSON in and out, exit-code mapping, spawn failures,
// environment isolation, and aborts that must stop the whole process group.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { overrideEnv } from '../../env-override.ts';
import { CommandExecutor } from '../../../engine/executors/command-executor.ts';
import type { AttemptResult } from '../../../engine/executors/executor.ts';
import { commandContext, isRunning, readJsonFile, tempWorkspace, waitFor } from './attempt-context.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/executors/${name}`, import.meta.url));
const node = process.execPath;
const nodeEval = (code: string): string[] => [node, '-e', code];

const executor = new CommandExecutor({ killGraceMs: 300 });
const workspace = tempWorkspace();

function run(config: Record<string, unknown>, extra: Partial<Parameters<typeof commandContext>[0]> = {}): Promise<AttemptResult> {
  return executor.execute(commandContext({ config, workspaceDir: workspace, ...extra }));
}

interface Echo {
  input: unknown;
  stdin: string;
  env: Record<string, string>;
  cwd: string;
}

function succeededOutput(result: AttemptResult): Echo {
  if (result.outcome !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.output as Echo;
}

describe('command executor: input and output', () => {
  it('writes the input as one JSON line on stdin and parses stdout as the output', async () => {
    const result = await run({ argv: [node, fixture('echo-stdin.mjs')] }, { input: { order: 7, items: ['a'] } });
    const echo = succeededOutput(result);
    expect(echo.input).toEqual({ order: 7, items: ['a'] });
    expect(echo.stdin).toBe('{"order":7,"items":["a"]}\n');
    expect(echo.cwd).toBe(workspace);
  });

  it('gives null for empty stdout', async () => {
    expect(await run({ argv: nodeEval('') })).toEqual({ outcome: 'succeeded', output: null });
  });

  it('resolves a relative cwd against the workflow folder', async () => {
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    const echo = succeededOutput(await run({ argv: [node, fixture('echo-stdin.mjs')], cwd: 'sub' }));
    expect(echo.cwd).toBe(join(workspace, 'sub'));
  });

  it('fails with invalid_json_output, saying where, when stdout is not JSON', async () => {
    const result = await run({ argv: nodeEval('console.log(\'{"a": 1,}\')') });
    expect(result).toMatchObject({ outcome: 'failed', code: 'invalid_json_output', retryable: true });
    if (result.outcome === 'failed') expect(result.message).toMatch(/trailing comma.*at byte 8 \(line 1, column 9\)/);
  });

  it('fails with output_too_large past the stdout cap, and still lets the command finish', async () => {
    const small = new CommandExecutor({ maxOutputBytes: 1000 });
    const ctx = commandContext({ config: { argv: nodeEval('process.stdout.write(JSON.stringify("x".repeat(5000)))') }, workspaceDir: workspace });
    expect(await small.execute(ctx)).toMatchObject({ outcome: 'failed', code: 'output_too_large', retryable: false });
  });

  it('does not fail when the command exits without reading a large input', async () => {
    const result = await run({ argv: nodeEval('console.log(1)') }, { input: { big: 'x'.repeat(4 * 1024 * 1024) } });
    expect(result).toEqual({ outcome: 'succeeded', output: 1 });
  });
});

describe('command executor: exit codes', () => {
  it('maps an exit code to a failure with its own code', async () => {
    const result = await run({ argv: nodeEval('process.exit(3)'), exitCodes: { '3': { outcome: 'failed', code: 'not_found' } } });
    expect(result).toMatchObject({ outcome: 'failed', code: 'not_found' });
  });

  it('maps an exit code to unknown', async () => {
    const result = await run({ argv: nodeEval('console.error("lost the reply"); process.exit(75)'), exitCodes: { '75': { outcome: 'unknown' } } });
    expect(result.outcome).toBe('unknown');
    if (result.outcome === 'unknown') expect(result.reason).toContain('lost the reply');
  });

  it('maps a non-zero exit code to success, with its JSON output', async () => {
    const result = await run({ argv: nodeEval('console.log(JSON.stringify({ changed: false })); process.exit(1)'), exitCodes: { '1': { outcome: 'succeeded' } } });
    expect(result).toEqual({ outcome: 'succeeded', output: { changed: false } });
  });

  it('fails any other non-zero exit with exit_<n> and the last 2 KB of stderr', async () => {
    const code = 'process.stderr.write("early ".repeat(1000) + "the real problem"); console.log(JSON.stringify({ partial: true })); process.exit(2)';
    const result = await run({ argv: nodeEval(code) });
    expect(result).toMatchObject({ outcome: 'failed', code: 'exit_2', output: { partial: true } });
    if (result.outcome !== 'failed') return;
    expect(result.message).toContain('exited with code 2');
    expect(result.message).toMatch(/stderr ends with:\n…[a-z]* early .*the real problem$/s);
    expect(result.message.length).toBeLessThan(2300);
  });

  it('fails with killed_by_signal when something else kills the command', async () => {
    const result = await run({ argv: nodeEval('process.kill(process.pid, "SIGKILL")') });
    expect(result).toMatchObject({ outcome: 'failed', code: 'killed_by_signal' });
    if (result.outcome === 'failed') expect(result.message).toContain('SIGKILL');
  });

  it('reports unknown when an external command is killed by a foreign signal', async () => {
    const result = await run({ argv: nodeEval('process.kill(process.pid, "SIGKILL")') }, { effect: 'external' });
    expect(result.outcome).toBe('unknown');
  });
});

describe('command executor: start-up failures', () => {
  it('fails with spawn_failed, not retryable, naming the program and the folder, for a missing program', async () => {
    const result = await run({ argv: ['weft-no-such-program-xyz', '--flag'] });
    expect(result).toMatchObject({ outcome: 'failed', code: 'spawn_failed', retryable: false });
    if (result.outcome !== 'failed') return;
    expect(result.message).toContain('"weft-no-such-program-xyz"');
    expect(result.message).toContain('PATH');
    expect(result.message).toContain(workspace);
  });

  it('fails with spawn_failed for a program that is not executable', async () => {
    const result = await run({ argv: [fixture('echo-stdin.mjs')] });
    expect(result).toMatchObject({ outcome: 'failed', code: 'spawn_failed', retryable: false });
    if (result.outcome === 'failed') expect(result.message).toContain('permission denied');
  });

  it('fails with spawn_failed for a working directory that does not exist', async () => {
    const result = await run({ argv: [node, '-v'], cwd: 'missing-dir' });
    expect(result).toMatchObject({ outcome: 'failed', code: 'spawn_failed', retryable: false });
    if (result.outcome === 'failed') expect(result.message).toContain(`${join(workspace, 'missing-dir')} does not exist`);
  });

  it('fails with invalid_config, not retryable, when the config does not parse', async () => {
    const result = await run({ argv: [], shell: true });
    expect(result).toMatchObject({ outcome: 'failed', code: 'invalid_config', retryable: false });
  });
});

describe('command executor: environment', () => {
  it('passes only a minimal environment, config.env and the attempt identity', async () => {
    onTestFinished(overrideEnv({ WEFT_TEST_SECRET: 'sk-do-not-leak' }));
    const result = await run(
      { argv: [node, fixture('echo-stdin.mjs')], env: { REGION: 'eu-west-1' } },
      { idempotencyKey: 'order-42', attempt: 3 },
    );
    const { env } = succeededOutput(result);
    expect(env['WEFT_TEST_SECRET']).toBeUndefined();
    expect(env['REGION']).toBe('eu-west-1');
    expect(env['PATH']).toBe(process.env['PATH']);
    expect(env).toMatchObject({ WEFT_RUN_ID: 'run_1', WEFT_STEP_ID: 'work', WEFT_ATTEMPT: '3', WEFT_IDEMPOTENCY_KEY: 'order-42' });
    const allowed = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT', 'REGION', 'WEFT_RUN_ID', 'WEFT_STEP_ID', 'WEFT_ACTIVATION', 'WEFT_ATTEMPT', 'WEFT_IDEMPOTENCY_KEY']);
    // A few variables are added by the C library or node itself at start-up (none from the engine).
    expect(Object.keys(env).filter((k) => !allowed.has(k) && !k.startsWith('LC_') && k !== 'PWD' && k !== 'SHLVL' && k !== '_')).toEqual([]);
  });

  it('leaves WEFT_IDEMPOTENCY_KEY unset when the step has none', async () => {
    const { env } = succeededOutput(await run({ argv: [node, fixture('echo-stdin.mjs')], env: { WEFT_IDEMPOTENCY_KEY: 'forged' } }));
    expect(env['WEFT_IDEMPOTENCY_KEY']).toBeUndefined();
  });
});

describe('command executor: abort', () => {
  async function startSleeper(effect: 'none' | 'external', args: string[] = []) {
    const pidFile = join(tempWorkspace(), 'pids.json');
    const controller = new AbortController();
    const pending = executor.execute(
      commandContext({ config: { argv: [node, fixture('spawn-sleeper.mjs'), pidFile, ...args] }, workspaceDir: workspace, effect, signal: controller.signal }),
    );
    const pids = await waitFor('the sleeper pids', () => readJsonFile<{ parent: number; child: number }>(pidFile));
    return { pids, controller, pending };
  }

  it('stops the whole process group and fails with aborted, retryable', async () => {
    const { pids, controller, pending } = await startSleeper('none');
    expect(isRunning(pids.parent) && isRunning(pids.child)).toBe(true);
    controller.abort(new Error('timed out after 5000 ms'));
    const result = await pending;
    expect(result).toEqual({ outcome: 'failed', code: 'aborted', message: 'aborted: timed out after 5000 ms', retryable: true });
    expect(isRunning(pids.parent)).toBe(false);
    expect(isRunning(pids.child)).toBe(false);
  });

  it('uses SIGKILL after the grace period when the group ignores SIGTERM', async () => {
    const { pids, controller, pending } = await startSleeper('none', ['--ignore-term']);
    controller.abort('cancelled');
    expect(await pending).toMatchObject({ outcome: 'failed', code: 'aborted' });
    expect(isRunning(pids.parent)).toBe(false);
    await waitFor('the grandchild to die', () => (isRunning(pids.child) ? undefined : true));
  });

  it('reports unknown for a step with an external effect', async () => {
    const { pids, controller, pending } = await startSleeper('external');
    controller.abort('cancelled by operator');
    expect(await pending).toEqual({ outcome: 'unknown', reason: 'aborted: cancelled by operator' });
    expect(isRunning(pids.child)).toBe(false);
  });

  it('does not start anything when aborted before the attempt', async () => {
    const controller = new AbortController();
    controller.abort('shutting down');
    const result = await run({ argv: ['weft-no-such-program-xyz'] }, { effect: 'external', signal: controller.signal });
    expect(result).toMatchObject({ outcome: 'failed', code: 'aborted', retryable: true });
  });
});
