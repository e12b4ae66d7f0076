// The default executors are made when the first attempt of their kind starts (issue 20, step 9:
// a `weft resume` of runs parked on timers loads no executor module). onFirstUse makes one
// executor for every attempt, and closing keeps its meaning: what was made is closed, what is made
// after a close is closed at once.
import { describe, expect, it } from 'vitest';
import { defaultExecutors, onFirstUse } from '../../../engine/executors/default-executors.ts';
import type { AttemptResult, Executor } from '../../../engine/executors/executor.ts';
import { commandContext, tempWorkspace } from './attempt-context.ts';

/** A maker that counts what it made and what was closed, and answers each attempt with its number. */
function counting(): { make: () => Promise<Executor>; made: () => number; closed: () => number } {
  let made = 0;
  let closed = 0;
  return {
    make: async () => {
      made++;
      const id = made;
      return { execute: async (): Promise<AttemptResult> => ({ outcome: 'succeeded', output: { executor: id } }), close: () => void closed++ };
    },
    made: () => made,
    closed: () => closed,
  };
}

describe('an executor made on first use', () => {
  const ctx = commandContext({ config: { argv: ['true'] }, workspaceDir: tempWorkspace() });

  it('is made by the first attempt, once, however many attempts start together', async () => {
    const c = counting();
    const executor = onFirstUse(c.make);
    expect(c.made()).toBe(0);
    const results = await Promise.all([executor.execute(ctx), executor.execute(ctx), executor.execute(ctx)]);
    expect(results).toEqual([1, 1, 1].map((n) => ({ outcome: 'succeeded', output: { executor: n } })));
    await executor.execute(ctx);
    expect(c.made()).toBe(1);
    executor.close?.();
    expect(c.closed()).toBe(1);
  });

  it('closes nothing before it is made, and is closed at once when made after a close', async () => {
    const c = counting();
    const executor = onFirstUse(c.make);
    executor.close?.();
    expect([c.made(), c.closed()]).toEqual([0, 0]);
    expect(await executor.execute(ctx)).toEqual({ outcome: 'succeeded', output: { executor: 1 } });
    expect([c.made(), c.closed()]).toEqual([1, 1]);
  });

  it('runs a real attempt through the default command executor', async () => {
    const { command } = defaultExecutors();
    const result = await command.execute(commandContext({ config: { argv: ['node', '-e', 'process.stdout.write(JSON.stringify({ ok: true }))'] }, workspaceDir: tempWorkspace() }));
    command.close?.();
    expect(result).toMatchObject({ outcome: 'succeeded', output: { ok: true } });
  });
});
