// Revalidation on resume on a real SQLite file with the real engine (docs/long-running.md): a
// migration while a person's approval waits makes the approval re-check its quote when it comes;
// a fresh quote goes on, an expired one settles `stale`, and a stale nobody routes asks a person.
// Without a trigger (a quick approval, no restart, no migration) no check runs. The virtual-time
// cases (a 1-hour and a 3-day wait, a restart) are scenarios: test/fixtures/scenarios/quote-approval.*.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineService } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { restartRecord } from '../../shared/run/restart-record.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { ScenarioFile } from '../../shared/scenario/scenario-schema.ts';
import { runScenario } from '../../engine/scenario/run-scenario.ts';
import { parseWorkflow } from './harness.ts';

const workflow = (version: number) => ({
  format: 'weft/v1',
  id: 'quoted-approval',
  version,
  name: 'Quoted approval',
  description: version === 1 ? 'Approve a quote.' : 'Approve a quote; v2 only rewords this text.',
  input: { type: 'object', required: ['validUntil'], properties: { validUntil: { type: 'string' } } },
  steps: [
    { id: 'quote', kind: 'transform', config: { expression: '{ "price": 1200, "validUntil": input.validUntil }' } },
    {
      id: 'approve',
      kind: 'human',
      config: { task: 'approve', title: 'Approve the quote' },
      deadlineMs: 604_800_000,
      revalidate: { check: '$millis() <= $toMillis(steps.quote.output.validUntil)', afterMs: 86_400_000 },
    },
    { id: 'done', kind: 'end' },
    { id: 'declined', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'quoted', from: 'quote', to: 'approve' },
    { id: 'approved', from: 'approve', to: 'done' },
    { id: 'not_approved', from: 'approve', to: 'declined', on: ['rejected', 'expired'] },
  ],
});

let session: EngineSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function service(): Promise<EngineService> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-revalidate-'));
  writeFileSync(join(dir, 'quoted-approval.weft.json'), JSON.stringify(workflow(1)));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  session = await openEngineSession(join(dir, 'weft.db'), 'revalidate test', 'create', env);
  return new EngineService(session.store, session.engine, dir, env, { actor: 'tester' });
}

async function waiting(svc: EngineService, validUntil: string): Promise<string> {
  const { runId } = await svc.startRun({ workflow: 'quoted-approval', input: { validUntil } });
  expect(await svc.settled(runId)).toBe('waiting');
  return runId;
}

const revalidations = (runId: string) => (session?.store.readEvents(runId) ?? []).filter((e) => e.type === 'step_revalidated');

describe('revalidation on resume (real store)', () => {
  it('runs no check when nothing triggers it: a quick approval of an expired quote simply succeeds', async () => {
    const svc = await service();
    const runId = await waiting(svc, '2000-01-01T00:00:00Z');
    await svc.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    expect(await svc.settled(runId)).toBe('succeeded');
    expect(revalidations(runId)).toEqual([]);
  });

  it('after a migration, a fresh quote passes the check and the run goes on; the evidence is on the step', async () => {
    const svc = await service();
    const runId = await waiting(svc, '2999-01-01T00:00:00Z');
    const report = await svc.migrate([runId], { kind: 'definition', workflow: Workflow.parse(workflow(2)) }, { reason: 'reworded' });
    expect(report.runs.map((r) => r.applied)).toEqual([true]);
    await svc.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    expect(await svc.settled(runId)).toBe('succeeded');
    const [e] = revalidations(runId);
    expect(e?.data).toMatchObject({ trigger: 'migration', verdict: 'fresh', check: '$millis() <= $toMillis(steps.quote.output.validUntil)' });
    expect(e?.data.inputs).toMatchObject({ trigger: 'migration', read: { 'steps.quote.output.validUntil': '2999-01-01T00:00:00Z' } });
    const step = restartRecord(foldRun(session!.store, runId)).steps.find((s) => s.id === 'approve');
    expect(step?.revalidation).toMatchObject({ trigger: 'migration', verdict: 'fresh', activation: 1 });
  });

  it('after a migration, an expired quote settles the approval stale; with no stale edge the run needs a person', async () => {
    const svc = await service();
    const runId = await waiting(svc, '2000-01-01T00:00:00Z');
    await svc.migrate([runId], { kind: 'definition', workflow: Workflow.parse(workflow(2)) }, { reason: 'reworded' });
    await svc.decide(runId, 'approve', { action: 'approve', by: 'ann' });
    expect(await svc.settled(runId)).toBe('needs_attention');
    expect(revalidations(runId).map((e) => [e.data.trigger, e.data.verdict])).toEqual([['migration', 'stale']]);
    const model = foldRun(session!.store, runId);
    expect(model.steps.get('approve')).toMatchObject({ state: 'failed', outcome: 'stale', escalated: true });
    const detail = runDetail(model);
    const step = detail.steps.find((s) => s.id === 'approve');
    expect(step?.revalidation?.why).toMatch(/gave false, not true, after a migration/);
    expect(step?.next).toMatch(/^needs a person: revalidation after migration/);
    // The operator decides: skip the step with the approval, and the run goes on.
    await svc.act(runId, { action: 'skip', step: 'approve', by: 'ops', reason: 'the customer accepts the old price', output: { decision: 'approved', by: 'ann', at: '2026-01-01T00:00:00.000Z' } });
    expect(await svc.settled(runId)).toBe('succeeded');
  });
});

describe('revalidation on resume (virtual time)', () => {
  const fixtures = join(import.meta.dirname, '..', 'fixtures', 'scenarios');
  const flow = parseWorkflow(JSON.parse(readFileSync(join(fixtures, 'quote-approval.weft.json'), 'utf8')));
  const scenarios = ScenarioFile.parse(JSON.parse(readFileSync(join(fixtures, 'quote-approval.scenarios.json'), 'utf8'))).scenarios;
  const checks = async (name: string) => {
    const scenario = scenarios.find((s) => s.name.startsWith(name));
    if (scenario === undefined) throw new Error(`no scenario "${name}"`);
    const r = await runScenario(flow, scenario);
    expect(r.passed).toBe(true);
    return r.events.flatMap((e) => (e.type === 'step_revalidated' ? [[e.data.trigger, e.data.verdict, e.data.waitedMs]] : []));
  };
  const HOUR = 3_600_000;

  it('passes after a 1-hour wait and routes stale after a 3-day wait, then passes on the new quote', async () => {
    expect(await checks('approved after 1 hour')).toEqual([['wait', 'fresh', HOUR - 200]]);
    expect(await checks('approved after 3 days')).toEqual([['wait', 'stale', 72 * HOUR - 200], ['wait', 'fresh', HOUR - 200]]);
  });

  it('runs no check under the threshold, and runs one after a restart even then', async () => {
    expect(await checks('approved within 10 minutes')).toEqual([]);
    expect(await checks('the engine restarts')).toEqual([['restart', 'fresh', 600_000 - 200]]);
  });
});
