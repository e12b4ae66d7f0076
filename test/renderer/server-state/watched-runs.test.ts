// The set of runs the app shows (renderer/core/watched-runs.ts), which the live stream subscribes
// to: views add and remove their runs, a run shown twice stays until both are gone, and a change
// is told once per turn however many views changed in it.
import { expect, it } from 'vitest';
import { onWatchedRunsChange, watchedRuns, watchRuns } from '../../../renderer/core/watched-runs.ts';

it('counts each run by the views that show it and tells a change once per turn', async () => {
  let told = 0;
  const stop = onWatchedRunsChange(() => (told += 1));
  const page = watchRuns(['a', 'b']);
  const card = watchRuns(['b', 'c']);
  expect(watchedRuns().sort()).toEqual(['a', 'b', 'c']);
  await Promise.resolve();
  expect(told).toBe(1);
  page();
  expect(watchedRuns().sort()).toEqual(['b', 'c']);
  card();
  expect(watchedRuns()).toEqual([]);
  await Promise.resolve();
  expect(told).toBe(2);
  const again = watchRuns(['c']);
  const same = watchRuns(['c']);
  await Promise.resolve();
  expect(told).toBe(3);
  same();
  await Promise.resolve();
  expect(told).toBe(3);
  expect(watchedRuns()).toEqual(['c']);
  again();
  stop();
});
