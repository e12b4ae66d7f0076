// Subworkflow and map steps: child runs pinned to a workflow id and version, linked both ways
// in the log, results in order, bounded concurrency and per-item failure policy.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events/run-event.ts';
import { harness, until, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

const child = {
  format: 'weft/v1', id: 'price-one', version: 2, name: 'Price one item',
  input: { type: 'object', required: ['sku', 'qty'], properties: { sku: { type: 'string' }, qty: { type: 'number' } } },
  output: '{"sku": input.sku, "total": steps.price.output}',
  steps: [
    { id: 'price', kind: 'command', input: 'input', config: { argv: ['sh', '-c', 'read l; case "$l" in *BAD*) exit 1;; esac; sleep 0.05; echo "$l" | sed -E \'s/.*"qty":([0-9]+).*/\\1/\' | awk \'{print $1 * 10}\''] } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'price', to: 'done' }],
};

const parent = (kind: 'map' | 'subworkflow', extra: Record<string, unknown> = {}) => ({
  format: 'weft/v1', id: `order-${kind}`, version: 1, name: 'Order',
  input: { type: 'object', properties: { lines: { type: 'array' } } },
  steps: [
    kind === 'map'
      ? { id: 'each', kind: 'map', config: { items: 'input.lines', workflow: { id: 'price-one', version: 2 }, concurrency: 2, ...extra } }
      : { id: 'each', kind: 'subworkflow', input: 'input.lines[0]', config: { workflow: { id: 'price-one', version: 2 } } },
    { id: 'done', kind: 'end' },
    { id: 'failed_end', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [{ id: 'a', from: 'each', to: 'done' }, { id: 'b', from: 'each', to: 'failed_end', on: 'failed' }],
});

/** A harness whose workspace holds the child workflow (price-one v2), as `h`. */
function withChild(): Harness {
  h = harness();
  writeFileSync(join(h.dir, 'price-one.weft.json'), JSON.stringify(child));
  return h;
}

const lines = [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 2 }, { sku: 'C', qty: 3 }, { sku: 'D', qty: 4 }, { sku: 'E', qty: 5 }];

describe('subworkflow', () => {
  it('runs a child run from the workspace, linked both ways, and returns its output', async () => {
    h = withChild();
    const { runId } = h.start(parent('subworkflow'), { lines });
    await until(() => h?.store.getRun(runId)?.state === 'succeeded', 'the parent');
    const m = h.model(runId);
    expect(m.view['each']?.output).toEqual({ sku: 'A', total: 10 });
    const started = h.events(runId).find((e) => e.type === 'child_started')?.data as RunEvent<'child_started'>['data'];
    const childModel = h.model(started.childRunId);
    expect(childModel.parent).toMatchObject({ runId, stepId: 'each' });
    expect(h.store.loadDefinition('price-one', 2)).toBeDefined();
  });

  it('fails the step when the child workflow is not found', async () => {
    h = harness();
    const { runId } = h.start(parent('subworkflow'), { lines });
    expect(await h.engine.settled(runId)).toBe('failed');
    const failed = h.events(runId).find((e) => e.type === 'attempt_failed')?.data as RunEvent<'attempt_failed'>['data'];
    expect(failed.error.code).toBe('workflow_not_found');
  });
});

describe('map', () => {
  it('runs one child per item, at most `concurrency` at once, with results in order', async () => {
    h = withChild();
    const { runId } = h.start(parent('map'), { lines });
    await until(() => h?.store.getRun(runId)?.state === 'succeeded', 'the map');
    expect(h.model(runId).view['each']?.output).toEqual(lines.map((l) => ({ sku: l.sku, total: l.qty * 10 })));
    // At most 2 children running at once, from the parent's log.
    let open = 0;
    let most = 0;
    for (const e of h.events(runId)) {
      if (e.type === 'child_started') most = Math.max(most, ++open);
      if (e.type === 'child_finished') open--;
    }
    expect(most).toBe(2);
  });

  it('fails on a failed item by default, and keeps going with onItemFailure continue', async () => {
    h = withChild();
    const bad = [...lines.slice(0, 2), { sku: 'BAD', qty: 1 }, ...lines.slice(2)];
    const failing = h.start(parent('map'), { lines: bad }).runId;
    await until(() => h?.store.getRun(failing)?.state === 'failed', 'the failing map');
    const failed = h.events(failing).find((e) => e.type === 'attempt_failed')?.data as RunEvent<'attempt_failed'>['data'];
    expect(failed.error).toMatchObject({ code: 'item_failed' });
    const tolerant = h.start({ ...parent('map', { onItemFailure: 'continue' }), id: 'order-map-tolerant' }, { lines: bad }).runId;
    await until(() => h?.store.getRun(tolerant)?.state === 'succeeded', 'the tolerant map');
    const out = h.model(tolerant).view['each']?.output as unknown[];
    expect(out).toHaveLength(6);
    expect(out[2]).toMatchObject({ error: 'item 2 ended failed' });
    expect(out[5]).toEqual({ sku: 'E', total: 50 });
  });
});
