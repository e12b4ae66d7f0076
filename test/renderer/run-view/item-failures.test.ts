// A map step's failed items on a real run: a real engine on a real SQLite file (test/engine/
// harness.ts, in this process: the CLI's own `weft run` is tested in test/cli) maps a child
// workflow over four SKUs with onItemFailure "continue", two items fail their acceptance rule,
// and the step still settles succeeded. The fold of the stored log then names the failed items
// and their runs, which the node's badge and the step detail show.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../../../shared/run/fold-events.ts';
import { runDetail } from '../../../shared/run/run-detail.ts';
import { harness, until } from '../../engine/harness.ts';
import { itemFailures, itemFailuresText } from '../../../renderer/runs/run-view/item-failures.ts';
import { CHECK_ALL, CHECK_ITEM } from '../../fixtures/map-items.ts';

const h = harness();
afterAll(() => {
  h.close();
  rmSync(h.dir, { recursive: true, force: true });
});

describe('itemFailures', () => {
  it('names the items of a map that settled succeeded although some of its items failed', async () => {
    writeFileSync(join(h.dir, 'check-item.weft.json'), JSON.stringify(CHECK_ITEM));
    const { runId, workflow } = h.start(CHECK_ALL, { skus: ['OK-1', 'BAD-2', 'OK-3', 'BAD-4'] });
    await until(() => h.store.getRun(runId)?.state === 'succeeded', 'the map run');

    const detail = runDetail(foldEvents(workflow, h.events(runId)));
    expect(detail.steps.find((s) => s.id === 'check_each')?.state).toBe('succeeded');

    const failures = itemFailures(detail.children);
    expect(Object.keys(failures)).toEqual(['check_each']);
    const each = failures['check_each'];
    expect(each?.total).toBe(4);
    expect(each?.failed.map((f) => [f.index, f.state])).toEqual([
      [1, 'failed'],
      [3, 'failed'],
    ]);
    // Each failed item names the child run that holds its cause.
    expect(each?.failed.map((f) => f.runId)).toEqual(detail.children.filter((c) => c.state === 'failed').map((c) => c.runId));
    expect(each === undefined ? '' : itemFailuresText(each)).toBe('2 of 4 items failed');
  });

  it('counts an item by its latest run: an item started again that then succeeded is no failure', () => {
    const children = [
      { runId: 'a0', stepId: 'm', index: 0, state: 'succeeded' as const },
      { runId: 'a1', stepId: 'm', index: 1, state: 'failed' as const },
      { runId: 'b1', stepId: 'm', index: 1, state: 'succeeded' as const },
      { runId: 'c0', stepId: 'n', index: 0, state: 'cancelled' as const },
      { runId: 'c1', stepId: 'n', index: 1, state: null },
    ];
    expect(itemFailures(children)).toEqual({ n: { total: 2, failed: [{ index: 0, runId: 'c0', state: 'cancelled' }] } });
    expect(itemFailures([])).toEqual({});
    expect(itemFailuresText({ total: 1, failed: [{ index: 0, runId: 'x', state: 'failed' }] })).toBe('1 of 1 item failed');
  });
});
