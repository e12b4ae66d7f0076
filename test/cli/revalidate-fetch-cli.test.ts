// A revalidate check that reads again first (`revalidate.fetch`) through the real binary, on a
// real store, against a supplier on 127.0.0.1: `weft approve` waits for the read before it exits
// (the approval settles then), and `weft inspect` shows the read beside the check's verdict.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';
import { supplierWorkspace } from './quote-supplier.ts';

const { dir, supplier } = supplierWorkspace('weft-cli-reread-');
const db = join(dir, 'store.db');

const waitingRun = async (): Promise<string> => {
  const r = await runWeft(['run', join(dir, 'quote-reread.weft.json'), '--input', JSON.stringify({ apiBase: supplier.apiBase, item: 'laptop' }), '--db', db, '--json']);
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { runId: string; state: string };
  expect(out.state).toBe('waiting');
  return out.runId;
};

describe('weft approve and weft inspect with a check that reads again', () => {
  it('approves, reads the price again before exiting, and inspect shows the read (fresh, then stale)', async () => {
    const fresh = await waitingRun();
    const before = supplier.gets;
    const approved = await runWeft(['approve', fresh, 'approve', '--db', db, '--json']);
    expect(approved.stderr).toBe('');
    expect(supplier.gets).toBe(before + 1);
    const inspected = await runWeft(['inspect', fresh, '--db', db]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(/revalidated after wait: fresh; the check still holds/);
    expect(inspected.stdout).toMatch(/the check read again first: http read answered in \d+ ms \(status 200\)/);
    expect(inspected.stdout).toMatch(/^ordered\s+succeeded/m);

    const stale = await waitingRun();
    supplier.price = 1290;
    await runWeft(['approve', stale, 'approve', '--db', db]);
    const record = JSON.parse((await runWeft(['inspect', stale, '--db', db, '--json'])).stdout) as { steps: { id: string; revalidation?: { verdict: string; inputs: { fetched?: { ok: boolean; output: { body: { price: number } } } } } }[] };
    const step = record.steps.find((s) => s.id === 'approve');
    expect(step?.revalidation).toMatchObject({ verdict: 'stale', inputs: { fetched: { ok: true, output: { body: { price: 1290 } } } } });
  });
});
