// A run whose revalidate check read again (`revalidate.fetch`) becomes a test that passes
// (docs/scenarios.md, docs/evolution.md "A run becomes a test"): real runs of quote-reread on a
// real SQLite store, the supplier a real http server on 127.0.0.1. In one run the read finds the
// price went up (stale, a new quote) and then that it holds (fresh, the order is placed); in
// another the read fails with 503 first. `weft test --from-run` scripts each read under
// "approve.revalidate" as it answered, in order, per activation; `weft test` of the written file
// passes, and neither making nor running the test sends the supplier a request.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import type { PlainOutcome } from '../../shared/scenario/scripted-outcome-schema.ts';
import { overrideEnv } from '../env-override.ts';
import { weftInProcess } from './capture-io.ts';
import { supplierWorkspace } from './quote-supplier.ts';

const { dir, supplier } = supplierWorkspace('weft-reread-from-run-');

/** `weft ARGS` on the test's store (`weft test FILE` runs in virtual time and takes no store). */
const weft = async (args: string[], code = 0): Promise<string> => {
  const r = await weftInProcess(args[0] === 'test' && args[1] !== '--from-run' ? args : [...args, '--db', join(dir, 'store.db')], dir);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code, stderr: '' });
  return r.stdout;
};

/** A run of quote-reread waiting for its first approval. */
const waitingRun = async (): Promise<string> => {
  const out = JSON.parse(await weft(['run', 'quote-reread.weft.json', '--input', JSON.stringify({ apiBase: supplier.apiBase, item: 'laptop' }), '--json'], 3)) as { runId: string; state: string };
  expect(out.state).toBe('waiting');
  return out.runId;
};

/** The answers a scenario scripts for a step, in call order, whether a plain list or one `cases` per activation. */
const answers = (script: unknown[] | undefined): PlainOutcome[] =>
  (script ?? []).flatMap((o) => (o !== null && typeof o === 'object' && 'cases' in o ? (o as { cases: { then: PlainOutcome }[] }).cases.map((c) => c.then) : [o as PlainOutcome]));

/**
 * `weft test --from-run` of `runId` into NAME.scenarios/ beside a copy of the workflow (a folder of
 * its own, so it is the only scenario there), then `weft test` of that workflow: the scenario, its
 * script for the read, and how it ran.
 */
const madeAndRun = async (runId: string) => {
  const own = join(dir, runId);
  mkdirSync(join(own, 'quote-reread.scenarios'), { recursive: true });
  copyFileSync(join(dir, 'quote-reread.weft.json'), join(own, 'quote-reread.weft.json'));
  const file = join(own, 'quote-reread.scenarios', `from-run-${runId}.json`);
  const requests = supplier.requests;
  await weft(['test', '--from-run', runId, '-o', file]);
  const scenario = ScenarioFile.parse(JSON.parse(readFileSync(file, 'utf8'))).scenarios[0];
  const report = JSON.parse(await weft(['test', join(own, 'quote-reread.weft.json'), '--json'])) as { passed: boolean; workflows: { scenarios: { passed: boolean; assertions: { ok: boolean; what: string }[] }[] }[] };
  expect(supplier.requests).toBe(requests);
  return { scenario, reads: answers(scenario?.steps?.['approve.revalidate']), ran: report.workflows[0]?.scenarios[0] };
};

/** The verdicts of the run's revalidate checks, in order. */
const verdicts = async (runId: string) => {
  const { events } = JSON.parse(await weft(['events', runId, '--json'])) as { events: { type: string; data: { verdict: string } }[] };
  return events.filter((e) => e.type === 'step_revalidated').map((e) => e.data.verdict);
};

it('a run whose check read again stale, then fresh, becomes a test that passes, each read answered as it was', async () => {
  supplier.price = 1200;
  const runId = await waitingRun();
  supplier.price = 1290; // the price went up while the approval waited: stale, and a new quote
  await weft(['approve', runId, 'approve'], 3);
  supplier.price = 1250; // it came down again before the second approval: fresh
  await weft(['approve', runId, 'approve']);
  expect(await verdicts(runId)).toEqual(['stale', 'fresh']);

  const { scenario, reads, ran } = await madeAndRun(runId);
  expect(reads.map((r) => ('succeed' in r ? (r.succeed as { body: { price: number } }).body.price : r))).toEqual([1290, 1250]);
  // The two approvals checked different quotes: each read is answered by its activation.
  const [script] = scenario?.steps?.['approve.revalidate'] ?? [];
  expect(script !== undefined && 'cases' in script ? script.cases.map((c) => c.when) : script).toEqual(['activation = 1 and attempt = 1', 'activation = 2 and attempt = 1']);
  expect(reads.every((r) => 'succeed' in r && (r.succeed as { status: number }).status === 200)).toBe(true);
  expect(scenario?.expect?.steps?.['approve']).toMatchObject({ state: 'succeeded' });
  expect(ran?.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(ran?.passed).toBe(true);
});

it('a read that failed is scripted as the failure it was, and the test passes', async () => {
  supplier.price = 1200;
  const runId = await waitingRun();
  supplier.failNext = true; // the read answers 503: stale, and a new quote
  await weft(['approve', runId, 'approve'], 3);
  await weft(['approve', runId, 'approve']);
  expect(await verdicts(runId)).toEqual(['stale', 'fresh']);

  const { scenario, reads, ran } = await madeAndRun(runId);
  // Both reads checked the same input (the same quote): a plain list, in the order they were made.
  expect(scenario?.steps?.['approve.revalidate']?.every((o) => !('cases' in o))).toBe(true);
  expect(reads).toHaveLength(2);
  expect(reads[0]).toMatchObject({ fail: 'http_503', retryable: false });
  expect(reads[1]).toMatchObject({ succeed: { status: 200, body: { price: 1200 } } });
  expect(ran?.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(ran?.passed).toBe(true);
});

it('a run whose reads were kept by reference, being large, becomes a test holding the values, and it passes', async () => {
  // Every output over 10 bytes is kept by reference: the reads' outputs and the steps' answers are artifacts in the log.
  const restore = overrideEnv({ WEFT_ARTIFACT_THRESHOLD: '10' });
  try {
    supplier.price = 1200;
    const runId = await waitingRun();
    supplier.price = 1290;
    await weft(['approve', runId, 'approve'], 3);
    supplier.price = 1250;
    await weft(['approve', runId, 'approve']);
    const { events } = JSON.parse(await weft(['events', runId, '--json'])) as { events: { type: string; data: { inputs?: { fetched?: { output?: unknown } } } }[] };
    expect(events.filter((e) => e.type === 'step_revalidated').map((e) => e.data.inputs?.fetched?.output)).toEqual([
      expect.objectContaining({ $artifact: expect.any(Object) }),
      expect.objectContaining({ $artifact: expect.any(Object) }),
    ]);

    const { scenario, reads, ran } = await madeAndRun(runId);
    expect(JSON.stringify(scenario)).not.toContain('$artifact');
    expect(reads.map((r) => ('succeed' in r ? (r.succeed as { body: { price: number } }).body.price : r))).toEqual([1290, 1250]);
    expect(ran?.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(ran?.passed).toBe(true);
  } finally {
    restore();
  }
});
