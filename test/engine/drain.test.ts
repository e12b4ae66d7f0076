// drain(): before a command gives the store back, the engine starts no new attempt that runs
// outside it and waits for those it started to end, with their ends recorded; what it did not
// start is left ready for the next engine, which finishes the run with nothing interrupted.
import { afterEach, expect, it } from 'vitest';
import { harness, types, until, wf, end, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

it('waits for the running attempt, starts nothing new, and leaves the rest to the next engine', async () => {
  h = harness();
  const cmd = (id: string) => ({ id, kind: 'command', effect: 'idempotent', config: { argv: ['sh', '-c', 'sleep 0.3; echo 1'] } });
  const { runId } = h.start(wf('two-commands', [cmd('first'), cmd('second'), end()], [{ id: 'a', from: 'first', to: 'second' }, { id: 'b', from: 'second', to: 'done' }]));
  await until(() => h?.engine.model(runId)?.steps.get('first')?.state === 'running', 'the first attempt to start');
  await h.engine.drain();
  const drained = types(h.events(runId));
  expect(types(h.events(runId), 'first')).toContain('attempt_succeeded');
  expect(types(h.events(runId), 'second')).toEqual(['step_activated']);
  expect(h.model(runId).steps.get('second')?.state).toBe('ready');

  const engine = h.restart();
  engine.recover();
  await until(() => h?.store.getRun(runId)?.state === 'succeeded', 'the next engine to finish the run');
  const all = types(h.events(runId));
  expect(all.slice(drained.length).filter((t) => t === 'engine_resumed' || t === 'attempt_unknown')).toEqual([]);
  expect(types(h.events(runId), 'first').filter((t) => t === 'attempt_started')).toHaveLength(1);
});
