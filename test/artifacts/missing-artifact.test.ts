// An output that names an artifact the engine does not have (docs/long-running.md, "Large and
// sensitive data by reference"), as a scenario made by an older `weft test --from-run` scripts
// it: the step's attempt fails with invalid_output naming the step, the artifact and the fix, the
// run fails like any run, and nothing is left to reject unhandled (before, the next step's settle
// read the reference and the engine's tick threw it: an unhandled rejection that killed the
// process). Through runScenario, and through `weft test` in this process. And a scenario's own
// large value is kept as a value, so `expect` compares it as one; and a store that cannot keep an
// artifact stops the scenario with that error, never a rejection left unhandled.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_ARTIFACT_THRESHOLD } from '../../engine/artifacts/externalise.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { Scenario } from '../../shared/scenario/scenario-schema.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { parseWorkflow } from '../engine/harness.ts';

const SHA = 'ab'.repeat(32);
const missing = { $artifact: { sha256: SHA, size: 1200, mediaType: 'application/json' } };

const definition = {
  format: 'weft/v1', id: 'fetch-rows', version: 1, name: 'Fetch rows',
  steps: [
    { id: 'fetch', kind: 'command', config: { argv: ['never-run'] } },
    { id: 'count', kind: 'transform', config: { expression: '$count(steps.fetch.output.rows)' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'fetch_count', from: 'fetch', to: 'count', when: 'output.ok = true' },
    { id: 'count_done', from: 'count', to: 'done' },
  ],
};
const scenario = { name: 'made from a run by an older weft', steps: { fetch: [{ succeed: missing }] }, expect: { state: 'succeeded' } };

const rejected: unknown[] = [];
const hear = (e: unknown): void => {
  rejected.push(e);
};
beforeEach(() => process.on('unhandledRejection', hear));
afterEach(() => process.off('unhandledRejection', hear));

const dir = mkdtempSync(join(tmpdir(), 'weft-missing-artifact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a scripted output naming an artifact the engine does not have fails its step with a clear error, and rejects nothing', async () => {
  const result = await runScenario(parseWorkflow(definition), Scenario.parse(scenario));
  expect(result.error).toBeUndefined();
  const failed = result.events.find((e) => e.type === 'attempt_failed' && e.step === 'fetch');
  expect(failed?.data).toMatchObject({ error: { code: 'invalid_output' }, retryable: false });
  const message = (failed?.data as { error: { message: string } }).error.message;
  expect(message).toContain(`the output of "fetch" holds a reference to artifact ${SHA}`);
  expect(message).toContain('put the value itself there');
  expect(result.assertions).toContainEqual(expect.objectContaining({ what: 'run state', ok: false, actual: 'failed' }));
  // Whatever the engine still had to do has run: a rejection would have been heard by now.
  await new Promise((resolve) => setImmediate(resolve));
  expect(rejected).toEqual([]);
});

it('weft test of such a scenario file exits 1, its log saying which step and artifact, and rejects nothing', async () => {
  writeFileSync(join(dir, 'fetch-rows.weft.json'), JSON.stringify(definition));
  writeFileSync(join(dir, 'fetch-rows.scenarios.json'), JSON.stringify({ scenarios: [scenario] }));
  const r = await weftInProcess(['test', 'fetch-rows.weft.json', '--json', '--events'], dir);
  expect(r.code, r.stderr).toBe(1);
  const report = JSON.parse(r.stdout) as { workflows: { scenarios: { passed: boolean; events: { type: string; step: string | null; data: { error?: { message: string } } }[] }[] }[] };
  const ran = report.workflows[0]?.scenarios[0];
  expect(ran?.passed).toBe(false);
  const failed = ran?.events.find((e) => e.type === 'attempt_failed' && e.step === 'fetch');
  expect(failed?.data.error?.message).toContain(`the output of "fetch" holds a reference to artifact ${SHA}`);
  await new Promise((resolve) => setImmediate(resolve));
  expect(rejected).toEqual([]);
});

it('a scenario expects a value over the default threshold as the value it scripted: its engine keeps no output by reference for its size', async () => {
  const rows = Array.from({ length: 180_000 }, (_, n) => ({ n, text: `row ${n} of the large answer` }));
  expect(JSON.stringify({ ok: true, rows }).length).toBeGreaterThan(DEFAULT_ARTIFACT_THRESHOLD);
  const big = Scenario.parse({ name: 'large', steps: { fetch: [{ succeed: { ok: true, rows } }] }, expect: { state: 'succeeded', steps: { fetch: { output: { ok: true, rows } }, count: { output: 180_000 } } } });
  const result = await runScenario(parseWorkflow(definition), big);
  expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  expect(result.passed).toBe(true);
});

it('a store that cannot keep an artifact ends the scenario with that error, and rejects nothing', async () => {
  const own = join(dir, 'unwritable');
  mkdirSync(own);
  writeFileSync(join(own, 'artifacts'), 'a file where the artifacts folder goes');
  const sensitive = { ...definition, steps: [{ ...definition.steps[0], output: { type: 'object', properties: { ok: { type: 'boolean' }, rows: { type: 'array' }, token: { type: 'string', 'x-weft-sensitive': true } } } }, ...definition.steps.slice(1)] };
  const result = await runScenario(parseWorkflow(sensitive), Scenario.parse({ name: 'token', steps: { fetch: [{ succeed: { ok: true, token: 'tok_1' } }] }, expect: { state: 'succeeded' } }), { dbPath: join(own, 'weft.db') });
  expect(result.passed).toBe(false);
  expect(result.error).toMatch(/^cannot (use|write) artifact .*unwritable\/artifacts\//);
  await new Promise((resolve) => setImmediate(resolve));
  expect(rejected).toEqual([]);
});
