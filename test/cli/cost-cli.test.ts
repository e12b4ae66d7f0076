// What a run cost, end to end (docs/cost.md): `weft run` of an agent workflow against a real fake
// provider server on 127.0.0.1 whose replies carry token usage, priced by the workspace's
// weft.prices.json; `weft inspect` shows the tokens and the cost per step and in all, and says
// how many attempts had no price. A broken price table refuses runs that bill, naming the file,
// the JSON path and the fix, and leaves runs that bill nothing alone.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../fake-llm.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const KEY = 'sk-fake-llm-0123456789';
let llm: FakeLlm;
const USAGE: Record<string, { inputTokens: number; outputTokens: number }> = {
  'gpt-4o-mini': { inputTokens: 1200, outputTokens: 300 },
  'claude-3-5-haiku-latest': { inputTokens: 2000, outputTokens: 100 },
  'gpt-4.1-nano': { inputTokens: 50, outputTokens: 5 },
};

beforeAll(async () => {
  llm = await startFakeLlm({ key: KEY, usage: (_p, _r, model) => USAGE[model] ?? { inputTokens: 0, outputTokens: 0 } });
});
afterAll(() => llm.close());

const PRICES = {
  format: 'weft-prices/v1',
  currency: 'USD',
  prices: [
    { provider: 'openai', model: 'gpt-4o-mini', from: '2025-01-01', inputPerMillion: 0.3, outputPerMillion: 1.2 },
    { provider: 'openai', model: 'gpt-4o-mini', from: '2026-01-01', inputPerMillion: 0.15, outputPerMillion: 0.6 },
    { provider: 'anthropic', model: 'claude-3-5-haiku-latest', from: '2026-01-01', inputPerMillion: 0.8, outputPerMillion: 4 },
  ],
};

function workspace(prices: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-cost-cli-'));
  if (prices !== undefined) writeFileSync(join(dir, 'weft.prices.json'), prices);
  const agent = (id: string, provider: string, model: string) => ({ id, kind: 'agent', config: { provider, model, baseUrl: llm.url, apiKeyEnv: 'FAKE_LLM_KEY', prompt: `Answer as ${id}.` } });
  writeFileSync(join(dir, 'answer.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'answer', version: 1, name: 'Answer',
    steps: [
      agent('draft', 'openai', 'gpt-4o-mini'),
      agent('review', 'anthropic', 'claude-3-5-haiku-latest'),
      agent('nano', 'openai', 'gpt-4.1-nano'),
      { id: 'shape', kind: 'transform', cost: { perCall: 0.01 }, config: { expression: '{"ok": true}' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'a', from: 'draft', to: 'review' }, { id: 'b', from: 'review', to: 'nano' }, { id: 'c', from: 'nano', to: 'shape' }, { id: 'd', from: 'shape', to: 'done' }],
  }));
  writeFileSync(join(dir, 'free.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'free', version: 1, name: 'Free',
    steps: [{ id: 'shape', kind: 'transform', config: { expression: '{"ok": true}' } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'e', from: 'shape', to: 'done' }],
  }));
  return dir;
}

const env = (dir: string) => ({ FAKE_LLM_KEY: KEY, WEFT_CONFIG_DIR: join(dir, 'config') });

describe('the cost of a run', () => {
  it('prices each agent attempt by its usage and the table, adds declared costs, and shows it in weft inspect', async () => {
    const dir = workspace(JSON.stringify(PRICES));
    const db = join(dir, 'weft.db');
    const run = await runWeft(['run', 'answer.weft.json', '--db', db, '--json'], dir, { env: env(dir) });
    expect(run.code, run.stderr).toBe(0);
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    expect(llm.requests.filter((r) => r.path === '/chat/completions')).toHaveLength(2);

    const inspect = await runWeft(['inspect', runId, '--json', '--db', db], dir, { env: env(dir) });
    expect(inspect.code, inspect.stderr).toBe(0);
    const detail = JSON.parse(inspect.stdout) as { cost: unknown; steps: { id: string; attempts: { meta: { cost?: unknown } | null }[] }[] };
    // draft: 1200 × 0.15 + 300 × 0.6 per million (the entry of 2026, not 2025); review: 2000 × 0.8 + 100 × 4.
    expect(detail.cost).toEqual({
      total: 0.01236,
      currency: 'USD',
      inputTokens: 3250,
      outputTokens: 405,
      unpriced: 1,
      steps: {
        draft: { total: 0.00036, attempts: 1, inputTokens: 1200, outputTokens: 300, unpriced: 0 },
        review: { total: 0.002, attempts: 1, inputTokens: 2000, outputTokens: 100, unpriced: 0 },
        nano: { total: 0, attempts: 1, inputTokens: 50, outputTokens: 5, unpriced: 1 },
        shape: { total: 0.01, attempts: 1, inputTokens: 0, outputTokens: 0, unpriced: 0 },
      },
    });
    const metaCost = (id: string) => detail.steps.find((s) => s.id === id)?.attempts[0]?.meta?.cost;
    expect(metaCost('draft')).toEqual({ amount: 0.00036, currency: 'USD', basis: 'tokens' });
    expect(metaCost('shape')).toEqual({ amount: 0.01, currency: 'USD', basis: 'declared' });
    expect(metaCost('nano')).toBeUndefined();

    const text = await runWeft(['inspect', runId, '--db', db], dir, { env: env(dir) });
    expect(text.stdout).toContain('Cost: $0.012 (3,250 input tokens, 405 output tokens); 1 attempt had no price: add its model to weft.prices.json (docs/cost.md)');
    expect(text.stdout).toMatch(/^draft +succeeded; .*cost \$0\.00036 \(1,200 in \/ 300 out tokens\)$/m);
    expect(text.stdout).toMatch(/^nano +succeeded; .*cost not priced \(50 in \/ 5 out tokens\)$/m);
    expect(`${run.stdout}${inspect.stdout}${text.stdout}`).not.toContain(KEY);
  });

  it('a broken weft.prices.json refuses a run that bills, saying what, where and how to fix it; a run that bills nothing starts', async () => {
    const broken = JSON.stringify({ ...PRICES, prices: [{ ...PRICES.prices[0], inputPerMillion: '0.15' }] });
    const dir = workspace(broken);
    const db = join(dir, 'weft.db');
    const before = llm.requests.length;
    const refused = await runWeft(['run', 'answer.weft.json', '--db', db], dir, { env: env(dir) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`workflow "answer" bills (steps draft, review, nano, shape)`);
    expect(refused.stderr).toContain(`${join(dir, 'weft.prices.json')} at $.prices[0].inputPerMillion: `);
    expect(refused.stderr).toContain('docs/cost.md');
    expect(refused.stderr).not.toContain(STACK_LINE);
    expect(llm.requests.length).toBe(before);

    const free = await runWeft(['run', 'free.weft.json', '--db', db], dir, { env: env(dir) });
    expect(free.code, free.stderr).toBe(0);
  });

  it('without a price table, tokens are counted and no amount is made up', async () => {
    const dir = workspace(undefined);
    const db = join(dir, 'weft.db');
    const run = await runWeft(['run', 'answer.weft.json', '--db', db, '--json'], dir, { env: env(dir) });
    expect(run.code, run.stderr).toBe(0);
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    const detail = JSON.parse((await runWeft(['inspect', runId, '--json', '--db', db], dir, { env: env(dir) })).stdout) as { cost: { total: number; unpriced: number; inputTokens: number } };
    expect(detail.cost).toMatchObject({ total: 0.01, unpriced: 3, inputTokens: 3250 });
  });
});
