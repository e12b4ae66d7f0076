// The one reader of a $partial report (engine/executors/partial-result.ts), as a table: what
// reads as partial, what is an ordinary output, and what fails with a message saying how to fix it;
// and a command's exit code mapped to partial (command-exit-result.ts).
import { describe, expect, it } from 'vitest';
import { partialFromValue } from '../../../engine/executors/partial-result.ts';
import { commandExitResult } from '../../../engine/executors/command-exit-result.ts';
import type { Step } from '../../../shared/definition/workflow-schema.ts';

describe('partialFromValue', () => {
  it.each([
    [{ $partial: { output: { done: 2 }, remaining: { from: 2 } } }, { outcome: 'partial', output: { done: 2 }, remaining: { from: 2 } }],
    [{ $partial: { output: null } }, { outcome: 'partial', output: null }],
    [{ $partial: { output: [1, 2], remaining: null } }, { outcome: 'partial', output: [1, 2], remaining: null }],
  ])('reads %j as partial', (value, result) => {
    expect(partialFromValue(value, 'script')).toEqual(result);
  });

  it.each([[{ done: 2 }], [null], [[{ $partial: {} }]], ['$partial'], [{ partial: { output: 1 } }]])('leaves %j an ordinary output', (value) => {
    expect(partialFromValue(value, 'script')).toBeUndefined();
  });

  it.each([
    [{ $partial: { output: 1 }, extra: true }, 'reported $partial beside other keys ("extra")'],
    [{ $partial: 5 }, 'reported $partial as number, not an object'],
    [{ $partial: [1] }, 'reported $partial as a list, not an object'],
    [{ $partial: { remaining: 1 } }, 'reported $partial without "output"'],
    [{ $partial: { output: 1, left: 2 } }, 'reported $partial with "left", which it does not take'],
  ])('refuses %j', (value, message) => {
    const r = partialFromValue(value, 'export "run"');
    expect(r).toMatchObject({ outcome: 'failed', code: 'invalid_partial', retryable: false });
    expect(r?.outcome === 'failed' ? r.message : '').toContain(`export "run" ${message}`);
    expect(r?.outcome === 'failed' ? r.message : '').toContain('{"$partial": {"output": <the part done>, "remaining": <what is left>}}');
  });
});

describe('a command exit code mapped to partial', () => {
  const step = { id: 'sync', kind: 'command', config: { argv: ['rsync'] } } as Step;
  const done = (exitCode: number, stdout: string) => ({
    program: 'rsync', exitCode, signal: null, stdout: Buffer.from(stdout), maxOutputBytes: 1000, stderrTail: '', step,
    exitCodes: { '23': { outcome: 'partial' as const } },
  });

  it('makes plain stdout the part done', () => {
    expect(commandExitResult(done(23, '{"copied":10}'))).toEqual({ outcome: 'partial', output: { copied: 10 } });
  });

  it('reads a $partial report on stdout, with its remaining', () => {
    expect(commandExitResult(done(23, '{"$partial":{"output":{"copied":10},"remaining":["b"]}}'))).toEqual({ outcome: 'partial', output: { copied: 10 }, remaining: ['b'] });
  });

  it('reads a $partial report after exit 0 too, and an empty stdout as null', () => {
    expect(commandExitResult(done(0, '{"$partial":{"output":1}}'))).toEqual({ outcome: 'partial', output: 1 });
    expect(commandExitResult(done(23, ''))).toEqual({ outcome: 'partial', output: null });
  });
});
