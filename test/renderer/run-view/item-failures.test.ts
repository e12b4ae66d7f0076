// A map step's failed items on a real run: `weft run` (the real CLI, a child process) maps a
// child workflow over three SKUs with onItemFailure "continue", one item fails its acceptance
// rule, and the step still settles succeeded. The fold of the stored log then names the failed
// item and its run, which the node's badge and the step detail show.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../../../shared/run/fold-events.ts';
import { runDetail } from '../../../shared/run/run-detail.ts';
import { openDatabase } from '../../../engine/store/open-database.ts';
import { Store } from '../../../engine/store/store.ts';
import { parseWorkflow } from '../../engine/harness.ts';
import { runWeft } from '../../cli/run-weft.ts';
import { itemFailures, itemFailuresText } from '../../../renderer/runs/run-view/item-failures.ts';
import { CHECK_ALL, CHECK_ITEM } from '../../fixtures/map-items.ts';

const tmp = mkdtempSync(join(tmpdir(), 'weft-items-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('itemFailures', () => {
  it('names the items of a map that settled succeeded although some of its items failed', async () => {
    writeFileSync(join(tmp, 'check-item.weft.json'), JSON.stringify(CHECK_ITEM));
    writeFileSync(join(tmp, 'check-all.weft.json'), JSON.stringify(CHECK_ALL));
    const db = join(tmp, 'weft.db');
    const env = { WEFT_DB: db, WEFT_CONFIG_DIR: join(tmp, 'config') };
    expect((await runWeft(['trust', tmp], tmp, { env })).code).toBe(0);
    const r = await runWeft(['run', 'check-all.weft.json', '--input', JSON.stringify({ skus: ['OK-1', 'BAD-2', 'OK-3', 'BAD-4'] }), '--json'], tmp, { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { runId } = JSON.parse(r.stdout) as { runId: string };

    const store = new Store(openDatabase(db));
    const detail = runDetail(foldEvents(parseWorkflow(CHECK_ALL), store.readEvents(runId)));
    store.db.close();
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
