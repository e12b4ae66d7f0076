// The read-model schemas of shared/api proven against today's engine: the real `weft` binary runs
// workflows into a store in a temp dir (retries, a task, a rejection, a fork, a pause and a
// cancel), and what `weft runs|inspect|events|tasks|validate --json` print parses strictly. The
// fields the engine does not produce yet are added to those real outputs from the real event log,
// and the result parses as RunDetail, RunSummary, EventPage and Timeline.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidateJson } from '../../../shared/api/diagnostic-schema.ts';
import { CursoredEvent, EventPage } from '../../../shared/api/event-page.ts';
import { RestartRecord } from '../../../shared/api/restart-record.ts';
import { RunDetail } from '../../../shared/api/run-detail.ts';
import { EventLogJson, RunEventRecord } from '../../../shared/api/run-event-record.ts';
import { RunOutcome } from '../../../shared/api/run-outcome.ts';
import { RunsListJson, RunSummary, RunSummaryPage } from '../../../shared/api/run-summary.ts';
import { TaskSummary, TasksJson } from '../../../shared/api/task-summary.ts';
import { Timeline } from '../../../shared/api/timeline.ts';
import { runMetrics } from '../../../engine/metrics/run-metrics.ts';
import { openDatabase } from '../../../engine/store/open-database.ts';
import { Store } from '../../../engine/store/store.ts';
import { REPO_ROOT, runWeft } from '../../cli/run-weft.ts';
import { realRunDetail, realTimeline } from './real-read-models.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-api-shapes-'));
const db = join(dir, 'store.db');
const file = join(dir, 'shapes.weft.json');
writeFileSync(file, JSON.stringify({
  format: 'weft/v1', id: 'api-shapes', version: 1, name: 'API shapes',
  input: { type: 'object', properties: { topic: { type: 'string' } } },
  steps: [
    {
      id: 'draft', kind: 'agent', retry: { maxAttempts: 3, initialIntervalMs: 10 },
      config: { provider: 'mock', prompt: 'Write about {{ input.topic }}', mock: { replies: [{ error: { code: 'rate_limited', message: 'slow down', status: 429 } }, { output: { title: 't' }, usage: { inputTokens: 3, outputTokens: 5 } }] } },
    },
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Review {{ input.topic }}', form: { type: 'object' } }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
    { id: 'stopped', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [{ id: 'a', from: 'draft', to: 'review' }, { id: 'b', from: 'review', to: 'done' }, { id: 'c', from: 'review', to: 'stopped', on: ['rejected', 'expired'] }],
}));

const weft = async (args: string[], code: number): Promise<unknown> => {
  const r = await runWeft([...args, '--db', db, '--json'], dir);
  expect(r.code, `weft ${args.join(' ')}: ${r.stderr}`).toBe(code);
  return JSON.parse(r.stdout);
};

const outcomes: unknown[] = [];
const runIds: string[] = [];

describe('read models against real CLI output', () => {
  beforeAll(async () => {
    const start = async (topic: string, code: number, extra: string[] = []): Promise<string> => {
      const out = await weft(['run', file, '--input', JSON.stringify({ topic }), ...extra], code);
      outcomes.push(out);
      const id = RunOutcome.parse(out).runId;
      runIds.push(id);
      return id;
    };
    const rejected = await start('rejected', 3);
    outcomes.push(await weft(['reject', rejected, 'review', '--reason', 'too short', '--by', 'ana'], 1));
    const forked = RunOutcome.parse(await weft(['fork', rejected, '--from', 'review'], 3)).runId;
    runIds.push(forked);
    const cancelled = await start('cancelled', 3, ['--key', 'k1', '--priority', '2']);
    outcomes.push(await weft(['pause', cancelled, '--reason', 'deploy window'], 3));
    outcomes.push(await weft(['cancel', cancelled, '--reason', 'duplicate'], 1));
    const approved = await start('approved', 3);
    outcomes.push(await weft(['reassign', approved, 'review', '--to', 'ben'], 3));
    outcomes.push(await weft(['approve', approved, 'review', '--data', '{"ok": true}'], 0));
    // About fifteen real CLI processes one after the other: minutes on a loaded 2-core machine.
  }, 240_000);

  it('weft run and the operator commands print a RunOutcome', () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(7);
    for (const o of outcomes) expect(RunOutcome.parse(o)).toEqual(o);
  });

  it('weft runs --json parses strictly, and its rows extend to RunSummary with the metrics fold', async () => {
    const list = RunsListJson.parse(await weft(['runs'], 0));
    expect(list.runs.map((r) => r.id).sort()).toEqual([...runIds].sort());
    expect(new Set(list.runs.map((r) => r.state))).toEqual(new Set(['failed', 'waiting', 'cancelled', 'succeeded']));
    const store = new Store(openDatabase(db));
    const summaries = list.runs.map((row) => {
      const m = runMetrics(store.readEvents(row.id));
      return { ...row, startedAtMs: m.startedAt, updatedAtMs: m.startedAt + m.durationMs, endedAtMs: m.endedAt, durationMs: m.durationMs, failure: m.failure, parentRunId: null };
    });
    store.db.close();
    const page = RunSummaryPage.parse({ runs: summaries, next: null });
    expect(page.runs.find((r) => r.state === 'failed')?.failure).toMatchObject({ step: 'review', outcome: 'rejected' });
    // Strict: an unknown field or a missing one is refused at its path.
    expect(RunSummary.safeParse({ ...summaries[0], extra: 1 }).error?.issues[0]?.code).toBe('unrecognized_keys');
    const { durationMs: _d, ...noDuration } = summaries[0] as Record<string, unknown>;
    expect(RunSummary.safeParse(noDuration).error?.issues[0]?.path).toEqual(['durationMs']);
  });

  it('weft inspect --json parses as RestartRecord for every run, and with the new fields as RunDetail', async () => {
    const store = new Store(openDatabase(db));
    try {
      for (const id of runIds) {
        const record = RestartRecord.parse(await weft(['inspect', id], 0));
        expect(record.run.id).toBe(id);
        const detail = realRunDetail(record, store.readEvents(id));
        const parsed = RunDetail.parse(detail);
        expect(parsed.steps.length).toBe(4);
        const draft = parsed.steps.find((s) => s.id === 'draft');
        expect(draft?.attempts.map((a) => [a.state, a.meta?.status ?? null])).toEqual([['failed', 429], ['succeeded', null]].slice(0, draft?.attempts.length));
      }
      const first = RestartRecord.parse(await weft(['inspect', runIds[0] as string], 0));
      const { next: _n, ...noNext } = first.steps[0] as Record<string, unknown>;
      expect(RestartRecord.safeParse({ ...first, steps: [noNext] }).error?.issues[0]?.path).toEqual(['steps', 0, 'next']);
      expect(RunDetail.safeParse(first).success).toBe(false);
    } finally {
      store.db.close();
    }
  });

  it('weft events --json parses; the stored events parse as RunEventRecord and page as EventPage', async () => {
    const store = new Store(openDatabase(db));
    try {
      let cursor = 0;
      for (const id of runIds) {
        const log = EventLogJson.parse(await weft(['events', id], 0));
        const stored = store.readEvents(id);
        expect(log.events.map((e) => e.type)).toEqual(stored.map((e) => e.type));
        const page = EventPage.parse({ events: stored.map((event) => ({ cursor: ++cursor, event })), next: null });
        expect(page.events.length).toBe(stored.length);
        expect(RunEventRecord.parse(stored[0]).type).toBe('run_created');
      }
      const e = store.readEvents(runIds[0] as string).find((x) => x.type === 'step_settled');
      expect(CursoredEvent.safeParse({ cursor: 1, event: { ...e, data: { outcome: 'won' } } }).error?.issues[0]?.path).toEqual(['event', 'data', 'outcome']);
      expect(RunEventRecord.safeParse({ ...e, type: 'step_vanished' }).error?.issues[0]?.path).toEqual(['type']);
    } finally {
      store.db.close();
    }
  });

  it('weft tasks --json parses, and with epoch-ms times as TaskSummary', async () => {
    const tasks = TasksJson.parse(await weft(['tasks'], 0)).tasks;
    expect(tasks.map((t) => t.stepId)).toEqual(['review']);
    for (const t of tasks) TaskSummary.parse({ ...t, activation: 1, openedAtMs: 0, deadlineAtMs: t.deadline === null ? null : Date.parse(t.deadline) });
  });

  it('a Timeline from a real log has the metrics fold as its totals', () => {
    const store = new Store(openDatabase(db));
    try {
      for (const id of runIds) Timeline.parse(realTimeline(store.readEvents(id)));
    } finally {
      store.db.close();
    }
  });

  it('weft validate --json on the examples parses as ValidateJson', async () => {
    const r = await runWeft(['validate', join(REPO_ROOT, 'examples'), '--json']);
    expect(r.code).toBe(0);
    expect(ValidateJson.parse(JSON.parse(r.stdout)).files.length).toBe(6);
  });
});
