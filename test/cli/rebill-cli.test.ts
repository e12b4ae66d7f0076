// "Billed again" through the real binary (docs/runs.md): weft retry and weft fork print which
// steps they will bill again before they act (--json: "rebill", beside every field they printed
// before), weft revise --dry-run shows it with its plan, and weft replay says it bills nothing.
// The store's run recorded scripted costs (test/engine/rebill-flow.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { RevisePlan } from '../../shared/api/input-commands.ts';
import { RebillEstimate } from '../../shared/cost/rebill-estimate.ts';
import { billedStore } from '../engine/rebill-flow.ts';
import { runWeft } from './run-weft.ts';

let store: Awaited<ReturnType<typeof billedStore>>;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  store = await billedStore();
  store.close();
  restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(store.dir, 'config') });
});
afterAll(() => restoreEnv());

describe('billed again', () => {
  it('weft revise --dry-run shows what the revision bills again with its plan', async () => {
    const text = await runWeft(['revise', store.runId, '--input', '{"topic":"rates"}', '--dry-run', '--db', store.dbPath], store.dir);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain('  billed again: draft ($0.012, last attempt), check (if reached, $0.003, last attempt); about $0.012, up to $0.015 if every step is reached\n');
    const json = await runWeft(['revise', store.runId, '--input', '{"topic":"rates"}', '--dry-run', '--json', '--db', store.dbPath], store.dir);
    const plan = RevisePlan.parse(JSON.parse(json.stdout));
    expect(plan.rebill?.steps.map((s) => s.stepId)).toEqual(['draft', 'check']);
  });

  it('weft fork prints what it bills again before it acts, and --json keeps its fields and adds "rebill"', async () => {
    const r = await runWeft(['fork', store.runId, '--from', 'check', '--json', '--db', store.dbPath], store.dir);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { runId: string; state: string; rebill: unknown };
    expect(Object.keys(out)).toEqual(['runId', 'state', 'rebill']);
    expect(out.runId).not.toBe(store.runId);
    // polish never ran in the source, so it is not billed "again"; tidy is free.
    expect(RebillEstimate.parse(out.rebill)).toEqual({ action: 'fork', steps: [{ stepId: 'check', kind: 'agent', estimate: 0.003, basis: 'last attempt', when: 'runs again' }], total: 0.003, upTo: 0.003, currency: 'USD' });
  });

  it('weft retry prints the line first, then the outcome', async () => {
    const r = await runWeft(['retry', store.runId, 'check', '--db', store.dbPath], store.dir);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe('billed again: check ($0.003, last attempt); about $0.003');
    expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^run ${store.runId}: succeeded$`));
    expect(r.code).toBe(0);
  });

  it('an act that is refused prints no estimate: the refusal says why', async () => {
    const r = await runWeft(['retry', store.runId, 'nope', '--db', store.dbPath], store.dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^weft retry: cannot retry run \S+: it is succeeded/);
  });
});
