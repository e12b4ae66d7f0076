// weft revise after an external effect, through the real binary and real command steps: the
// revision plan is printed before anything happens, --dry-run changes nothing, the external step
// waits for a decision (exit 3) instead of sending a second quote, and weft keep settles it.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { ReviseOutcome, RevisePlan } from '../../shared/api/input-commands.ts';
import { RunActionResult } from '../../shared/api/run-action.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-revise-'));
const db = join(dir, 'store.db');
const quotes = join(dir, 'quotes.log');
// Every weft child of this file uses its own config folder; restored when the file is done.
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') });
afterAll(() => restoreEnv());
const file = join(dir, 'quote.weft.json');
writeFileSync(file, JSON.stringify({
  format: 'weft/v1',
  id: 'quote',
  version: 1,
  name: 'Quote',
  steps: [
    { id: 'price', kind: 'transform', config: { expression: '{"customer": input.customer, "cents": input.qty * 250}' } },
    {
      id: 'send_quote',
      kind: 'command',
      effect: 'external',
      onExhausted: 'escalate',
      input: 'steps.price.output',
      config: { argv: ['sh', '-c', `read l; echo "$l" >> '${quotes}'; echo '{"sent": true}'`] },
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'priced', from: 'price', to: 'send_quote' }, { id: 'quoted', from: 'send_quote', to: 'done' }],
}));

const sent = (): number => (existsSync(quotes) ? readFileSync(quotes, 'utf8').trim().split('\n').length : 0);
const eventCount = (): number => {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    d.close();
  }
};

let runId = '';
beforeAll(async () => {
  expect((await runWeft(['trust', dir])).code).toBe(0);
  const r = await runWeft(['run', file, '--db', db, '--input', '{"customer": "ACME", "qty": 2}', '--json']);
  expect(r.code).toBe(0);
  runId = (JSON.parse(r.stdout) as { runId: string }).runId;
  expect(sent()).toBe(1);
});

describe('weft revise after an external effect', () => {
  it('--dry-run prints the plan and changes nothing', async () => {
    const before = eventCount();
    const r = await runWeft(['revise', runId, '--db', db, '--input', '{"customer": "ACME", "qty": 3}', '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/runs again: +price/);
    expect(r.stdout).toMatch(/waits for a decision: +send_quote \(its input changed after its effect happened/);
    expect(r.stdout).toMatch(/dry run: nothing was changed/);
    const j = await runWeft(['revise', runId, '--db', db, '--input', '{"customer": "ACME", "qty": 3}', '--dry-run', '--json']);
    // What it prints is shared/api's RevisePlan, as the app's dry-run answer is.
    const plan = RevisePlan.parse(JSON.parse(j.stdout));
    expect(RunActionResult.parse(plan)).toEqual(plan);
    expect(plan).toMatchObject({ runId, state: 'succeeded', dryRun: true, inputRevision: 2 });
    expect(plan.plan.map((p) => [p.stepId, p.action])).toContainEqual(['send_quote', 'ask']);
    expect(eventCount()).toBe(before);
    expect(sent()).toBe(1);
  });

  it('does not send a second quote: the step waits for a decision, and weft keep settles it', async () => {
    const r = await runWeft(['revise', runId, '--db', db, '--input', '{"customer": "ACME", "qty": 3}', '--json']);
    expect(sent()).toBe(1);
    expect(r.code).toBe(3);
    const out = ReviseOutcome.parse(JSON.parse(r.stdout));
    expect(RunActionResult.parse(out)).toEqual(out);
    expect(out).toMatchObject({ runId, state: 'needs_attention', inputRevision: 2 });
    expect(out.plan.find((p) => p.stepId === 'send_quote')?.action).toBe('ask');
    const inspect = await runWeft(['inspect', runId, '--db', db]);
    expect(inspect.stdout).toMatch(/send_quote +waiting;[^\n]*\n +next: decide: its input changed after its effect happened/);

    const refused = await runWeft(['keep', runId, 'price', '--db', db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot keep step "price"/);
    expect(refused.stderr).not.toContain(STACK_LINE);

    const kept = await runWeft(['keep', runId, 'send_quote', '--db', db, '--by', 'ops', '--reason', 'the customer has the first quote', '--json']);
    expect(kept.stderr).toBe('');
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout)).toMatchObject({ runId, state: 'succeeded' });
    expect(sent()).toBe(1);
  });
});
