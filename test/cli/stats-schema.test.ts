// shared/api/workflow-stats.ts against what the real `weft stats --json` prints for a store with
// real runs: trip-saga against the fake booking API (two trips booked, one compensated) and
// research-review with its mock agents, answered by a person (approved, and rejected then
// approved). The schema is strict, so a field the engine adds or drops fails here first.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowReport as EngineReport } from '../../engine/metrics/stats.ts';
import { WorkflowReport } from '../../shared/api/workflow-stats.ts';
import { REPO_ROOT, runWeft } from './run-weft.ts';

// The engine's own type must fit the schema's: a field added in engine/metrics without the
// schema breaks type-checking here (the CLI adds only `asOf`).
export const engineFitsSchema = (r: EngineReport & { asOf?: string }): WorkflowReport => r;

const root = mkdtempSync(join(tmpdir(), 'weft-stats-schema-'));
const dir = join(root, 'workspace');
const env = { WEFT_DB: join(root, 'weft.db'), WEFT_CONFIG_DIR: join(root, 'config'), WEFT_USER: 'reviewer' };
let api: { url: string; close(): Promise<void> };

async function weft(args: string[], expectCode: number): Promise<string> {
  const r = await runWeft(args, dir, { env });
  expect(r.stderr, `weft ${args.join(' ')}`).toBe('');
  expect(r.code, `weft ${args.join(' ')}`).toBe(expectCode);
  return r.stdout;
}

const trip = (id: string, carUntil: string) => ({
  apiBase: api.url,
  tripId: id,
  traveller: { name: 'Ada Lovelace', email: 'ada@example.com' },
  flight: { from: 'LHR', to: 'LIS', date: '2026-05-14' },
  hotel: { city: 'Lisbon', checkIn: '2026-05-14', checkOut: '2026-05-18' },
  car: { pickUp: 'LIS', from: '2026-05-14', until: carUntil },
});

async function report(workflow: string): Promise<unknown> {
  return JSON.parse(await weft(['stats', workflow, '--json'], 0));
}

beforeAll(async () => {
  cpSync(join(REPO_ROOT, 'examples'), dir, { recursive: true });
  await weft(['trust', dir], 0);
  const { startFakeApi } = (await import(join(REPO_ROOT, 'examples/fake-api.mjs'))) as { startFakeApi: (port: number) => Promise<typeof api> };
  api = await startFakeApi(0);
  // A booked trip waits for the traveller to confirm its quoted price (docs/long-running.md).
  const booked = async (id: string): Promise<void> => {
    const { runId } = JSON.parse(await weft(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip(id, '2026-05-18')), '--json'], 3)) as { runId: string };
    await weft(['approve', runId, 'traveller_confirms'], 0);
  };
  await booked('T-1');
  // The car's return before its pick-up: 422, so the flight and hotel are cancelled.
  await weft(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip('T-2', '2026-05-10'))], 1);
  await booked('T-3');
  const first = JSON.parse(await weft(['run', 'research-review.weft.json', '--input', '{"topic":"durable workflows"}', '--json'], 3)) as { runId: string };
  await weft(['approve', first.runId, 'review'], 0);
  const second = JSON.parse(await weft(['run', 'research-review.weft.json', '--input', '{"topic":"event sourcing"}', '--json'], 3)) as { runId: string };
  await weft(['reject', second.runId, 'review', '--reason', 'cite the sources'], 3);
  await weft(['approve', second.runId, 'rereview'], 0);
}, 180_000);

afterAll(async () => {
  await api?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the report of weft stats --json', () => {
  it('parses for trip-saga, with the figures of its three runs', async () => {
    const r = WorkflowReport.parse(await report('trip-saga'));
    expect(r.asOf).toBeDefined();
    expect(r.stats.runs).toBe(3);
    expect(r.stats.states.succeeded).toBe(2);
    expect(r.stats.states.failed).toBe(1);
    expect(r.stats.successRate).toBeCloseTo(2 / 3);
    expect(r.stats.compensationRate).toBeCloseTo(1 / 3);
    expect(r.stats.edges['car_failed']).toEqual({ decided: 3, taken: 1, frequency: 1 / 3 });
    expect(r.stats.steps['cancel_car']).toMatchObject({ runs: 0, latencyMs: null });
    expect(r.runs.map((x) => x.state)).toEqual(['succeeded', 'failed', 'succeeded']);
    const compensated = r.runs[1];
    expect(compensated?.compensations).toBe(2);
    expect(compensated?.steps['cancel_hotel']?.compensates).toBe('book_hotel');
    for (const run of r.runs) expect(run.activeMs + run.waitingMs + run.queueMs + run.attentionMs).toBe(run.durationMs);
  });

  it('parses for research-review, where people approved and rejected', async () => {
    const r = WorkflowReport.parse(await report('research-review'));
    expect(r.stats.runs).toBe(2);
    expect(r.stats.successRate).toBe(1);
    expect(r.stats.humanInterventionRate).toBe(1);
    expect(r.stats.edges['review_rejected']).toMatchObject({ decided: 2, taken: 1 });
    expect(r.runs[1]?.interventions.decisions).toBe(2);
    expect(r.runs[1]?.path).toContain('rereview_approved');
    // Waiting for the reviewer is waiting time, not active time.
    expect(r.runs[0]?.waitingMs).toBeGreaterThan(0);
  });

  it('parses for --version, and the API answer has no asOf', async () => {
    const r = WorkflowReport.parse(JSON.parse(await weft(['stats', 'trip-saga', '--version', String(WorkflowReport.parse(await report('trip-saga')).stats.versions[0]), '--json'], 0)));
    expect(r.stats.runs).toBe(3);
    const { asOf: _asOf, ...fromApi } = r;
    expect(WorkflowReport.safeParse(fromApi).success).toBe(true);
  });

  // Bad answers, each refused at its path: what the app shows when engine and app disagree.
  const cases: [string, (r: Record<string, unknown> & { stats: Record<string, unknown>; runs: Record<string, unknown>[] }) => void, string][] = [
    ['a rate above 1', (r) => (r.stats['successRate'] = 1.5), 'stats.successRate'],
    ['a field the schema does not know', (r) => (r.stats['extra'] = 1), 'stats'],
    ['a missing run state', (r) => delete (r.stats['states'] as Record<string, number>)['paused'], 'stats.states.paused'],
    ['an outcome that is not one', (r) => ((r.stats['steps'] as Record<string, { outcomes: Record<string, number> }>)['book_car']!.outcomes['exploded'] = 1), 'stats.steps.book_car.outcomes'],
    ['a negative count', (r) => (r.runs[0]!['retries'] = -1), 'runs.0.retries'],
    ['a run without its time split', (r) => delete r.runs[0]!['attentionMs'], 'runs.0.attentionMs'],
    ['a bad asOf', (r) => (r['asOf'] = 'yesterday'), 'asOf'],
  ];
  it.each(cases)('refuses %s', async (_name, spoil, path) => {
    const r = (await report('trip-saga')) as Parameters<(typeof cases)[number][1]>[0];
    spoil(r);
    const parsed = WorkflowReport.safeParse(r);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});
