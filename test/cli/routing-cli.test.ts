// Agent candidates through the real binary (docs/routing.md): `weft run` of a workflow whose agent
// step escalates from an unsure mock candidate to a confident one; `weft inspect` says which
// candidate each attempt ran on and why; `weft compare` of two runs that chose differently names
// the candidate as the difference, in --json and in the text.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-routing-'));
const db = join(dir, 'weft.db');
/** `quickConfidence`: how sure the cheap candidate's one reply is. */
const triage = (id: string, quickConfidence: number): string => {
  const file = join(dir, `${id}.weft.json`);
  writeFileSync(file, JSON.stringify(workflow(id, quickConfidence)));
  return file;
};
const workflow = (id: string, quickConfidence: number) => ({
  format: 'weft/v1', id, version: 1, name: 'Triage',
  steps: [
    {
      id: 'classify',
      kind: 'agent',
      input: '{"text": input.text}',
      config: {
        prompt: 'Classify {{ input.text }} as JSON {label, confidence}',
        candidates: [
          { id: 'quick', provider: 'mock', model: 'quick', cost: 1, tags: ['general'], mock: { replies: [{ output: { label: 'other', confidence: quickConfidence } }] } },
          { id: 'careful', provider: 'mock', model: 'careful', cost: 9, tags: ['general', 'legal'], mock: { replies: [{ output: { label: 'contract', confidence: 0.92 } }] } },
        ],
        choose: { order: 'cheapest', confidence: { expression: 'output.confidence', below: 0.6 }, matchTags: 'input.topic' },
      },
      retry: { maxAttempts: 2 },
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'classify', to: 'done' }],
});
const unsure = triage('triage', 0.3);
const sure = triage('triage-sure', 0.8);

const runs: Record<string, string> = {};
async function run(file: string, input: unknown): Promise<string> {
  const r = await runWeft(['run', file, '--db', db, '--input', JSON.stringify(input), '--json'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}

beforeAll(async () => {
  runs['general'] = await run(unsure, { text: 'hello', topic: 'general' });
  runs['sureGeneral'] = await run(sure, { text: 'hello', topic: 'general' });
  runs['sureLegal'] = await run(sure, { text: 'hello', topic: 'legal' });
});
const id = (name: string): string => runs[name] ?? '';

describe('agent candidates in the CLI', () => {
  it('weft inspect says which candidate each attempt ran on, and why', async () => {
    const r = await runWeft(['inspect', id('general'), '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`attempt classify/1.1 ran on quick: quick: its tags match the input (general); the cheapest (cost 1)`);
    expect(r.stdout).toContain(`attempt classify/1.2 ran on careful: escalated to careful: its tags match the input (general); the cheapest left (cost 9); passed over quick (confidence too low)`);
    const json = RunDetail.parse(JSON.parse((await runWeft(['inspect', id('general'), '--db', db, '--json'], dir)).stdout));
    const attempts = json.steps.find((s) => s.id === 'classify')?.attempts ?? [];
    expect(attempts.map((a) => [a.route?.chosen, a.error?.code ?? null])).toEqual([['quick', 'low_confidence'], ['careful', null]]);
    expect(attempts[0]?.error?.message).toBe('confidence 0.3 is below 0.6 (quick); the next attempt goes to careful');
  });

  it('weft compare names a different chosen candidate as the difference (exit 1)', async () => {
    const r = await runWeft(['compare', id('sureLegal'), id('sureGeneral'), '--db', db, '--json'], dir);
    expect(r.code).toBe(1);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.firstDifference).toEqual({ stepId: 'classify', kind: 'candidate', why: '"classify" ran on careful in A, on quick in B' });
    const step = c.steps.find((s) => s.id === 'classify');
    expect(step?.differs).toEqual(['candidate', 'output']);
    expect([step?.a?.candidate, step?.b?.candidate]).toEqual(['careful', 'quick']);
    const text = await runWeft(['compare', id('sureLegal'), id('sureGeneral'), '--db', db], dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('"classify" ran on careful in A, on quick in B');
  });
});
