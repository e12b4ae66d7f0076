// The read-model schemas of shared/api proven against the engine: the real `weft` binary runs
// workflows into a store in a temp dir (retries, a task, a rejection, a fork, a pause and a
// cancel), and what `weft runs|inspect|events|tasks|validate --json` print parses strictly.
// `weft inspect --json` prints the RunDetail, checked against one built by hand from the real
// event log; the timeline of each real log parses, with the metrics' figures as its totals.
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
import { timeline } from '../../../shared/run/timeline.ts';
import { runMetrics } from '../../../engine/metrics/run-metrics.ts';
import { openDatabase } from '../../../engine/store/open-database.ts';
import { Store } from '../../../engine/store/store.ts';
import { REPO_ROOT, runWeft } from '../../cli/run-weft.ts';
import { realRunDetail } from './real-read-models.ts';

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
    const conn = openDatabase(db);
    const store = new Store(conn);
    const summaries = list.runs.map((row) => {
      const m = runMetrics(store.readEvents(row.id));
      return { ...row, startedAtMs: m.startedAt, updatedAtMs: m.startedAt + m.durationMs, endedAtMs: m.endedAt, durationMs: m.durationMs, failure: m.failure, parentRunId: null };
    });
    conn.close();
    const page = RunSummaryPage.parse({ runs: summaries, next: null });
    expect(page.runs.find((r) => r.state === 'failed')?.failure).toMatchObject({ step: 'review', outcome: 'rejected' });
    // Strict: an unknown field or a missing one is refused at its path.
    expect(RunSummary.safeParse({ ...summaries[0], extra: 1 }).error?.issues[0]?.code).toBe('unrecognized_keys');
    const { durationMs: _d, ...noDuration } = summaries[0] as Record<string, unknown>;
    expect(RunSummary.safeParse(noDuration).error?.issues[0]?.path).toEqual(['durationMs']);
  });

  it('weft inspect --json prints the RunDetail: the restart record of before, with permitted actions and attempt details added', async () => {
    const conn = openDatabase(db);
    const store = new Store(conn);
    try {
      const byTopic = new Map<string, RunDetail>();
      for (const id of runIds) {
        const out = await weft(['inspect', id], 0);
        const parsed = RunDetail.parse(out);
        expect(parsed.run.id).toBe(id);
        // Every field of the restart record is still there, in its order: the additions come after.
        const record = RestartRecord.parse({ run: pick(parsed.run, Object.keys(RestartRecord.shape.run.shape)), steps: parsed.steps.map((s) => ({ ...pick(s, STEP_VIEW_KEYS), attempts: s.attempts.map((a) => pick(a, ATTEMPT_VIEW_KEYS)) })) });
        expect(Object.keys(out as object).slice(0, 2)).toEqual(['run', 'steps']);
        expect(Object.keys((out as RunDetail).run).slice(0, 5)).toEqual(Object.keys(record.run));
        expect(Object.keys((out as RunDetail).steps[0] ?? {}).slice(0, STEP_VIEW_KEYS.length)).toEqual(STEP_VIEW_KEYS);
        // The attempt details equal the ones read from the log by hand.
        const oracle = RunDetail.parse(realRunDetail(record, store.readEvents(id)));
        for (const [k, s] of parsed.steps.entries()) {
          expect(s.attempts.map(detailOf), `${id} ${s.id}`).toEqual(oracle.steps[k]?.attempts.map(detailOf));
          expect(s.outcome).toBe(oracle.steps[k]?.outcome);
        }
        const { permittedActions: _p, failing: _f, ...header } = parsed.run;
        const { permittedActions: _op, failing: _of, ...oracleHeader } = oracle.run;
        expect(header).toEqual(oracleHeader);
        expect(new Map(parsed.edges.map((e) => [e.id, e]))).toEqual(new Map(oracle.edges.map((e) => [e.id, e])));
        expect(parsed.steps.length).toBe(4);
        const draft = parsed.steps.find((s) => s.id === 'draft');
        expect(draft?.attempts.map((a) => [a.state, a.meta?.status ?? null])).toEqual([['failed', 429], ['succeeded', null]].slice(0, draft?.attempts.length));
        byTopic.set(String((parsed.run.input as { topic: string }).topic) + (parsed.run.forkOf === null ? '' : ' fork'), parsed);
      }
      const actions = (d: RunDetail | undefined, step: string): string[] => d?.steps.find((s) => s.id === step)?.permittedActions.map((a) => a.action) ?? [];
      // A task that waits for a person: answer, reassign, skip, or fork from it.
      expect(actions(byTopic.get('rejected fork'), 'review')).toEqual(['skip', 'fork', 'approve', 'reject', 'reassign']);
      expect(byTopic.get('rejected fork')?.tasks.map((t) => t.stepId)).toEqual(['review']);
      // A rejected step of a failed run: retry, skip, fork; the run itself only takes a revision.
      expect(actions(byTopic.get('rejected'), 'review')).toEqual(['retry', 'skip', 'fork']);
      expect(byTopic.get('rejected')?.run.permittedActions.map((a) => a.action)).toEqual(['revise']);
      expect(byTopic.get('rejected')?.steps.find((s) => s.id === 'review')?.permittedActions[0]?.why).toMatch(/^it is rejected \(rejected: too short\); a retry starts activation 2$/);
      // A cancelled run permits nothing on its steps but forks; a succeeded one the same.
      expect(actions(byTopic.get('cancelled'), 'review')).toEqual(['fork']);
      expect(actions(byTopic.get('approved'), 'draft')).toEqual(['fork']);
      expect(byTopic.get('approved')?.steps.find((s) => s.id === 'review')?.attempts[0]?.output).toMatchObject({ decision: 'approved', by: expect.any(String), data: { ok: true } });
      const cancelled = byTopic.get('cancelled');
      expect(cancelled?.run).toMatchObject({ key: 'k1', priority: 2 });
      // The task nobody answered ends with the cancel: its attempt is cancelled, not in flight.
      expect(cancelled?.steps.find((s) => s.id === 'review')?.attempts.map((a) => [a.state, a.endedAtMs !== null])).toEqual([['cancelled', true]]);
      const first = RunDetail.parse(await weft(['inspect', runIds[0] as string], 0));
      const { permittedActions: _pa, ...noActions } = first.steps[0] as Record<string, unknown>;
      expect(RunDetail.safeParse({ ...first, steps: [noActions] }).error?.issues[0]?.path).toEqual(['steps', 0, 'permittedActions']);
      expect(RestartRecord.safeParse(first).success).toBe(false);
    } finally {
      conn.close();
    }
  });

  it('weft events --json parses; the stored events parse as RunEventRecord and page as EventPage', async () => {
    const conn = openDatabase(db);
    const store = new Store(conn);
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
      conn.close();
    }
  });

  it('weft tasks --json parses, and with epoch-ms times as TaskSummary', async () => {
    const tasks = TasksJson.parse(await weft(['tasks'], 0)).tasks;
    expect(tasks.map((t) => t.stepId)).toEqual(['review']);
    for (const t of tasks) TaskSummary.parse({ ...t, activation: 1, openedAtMs: 0, deadlineAtMs: t.deadline === null ? null : Date.parse(t.deadline) });
  });

  it('the Timeline of each real log parses, has the metrics as its totals, and a span per attempt', () => {
    const conn = openDatabase(db);
    const store = new Store(conn);
    try {
      for (const id of runIds) {
        const events = store.readEvents(id);
        const t = Timeline.parse(timeline(events));
        const m = runMetrics(events);
        expect(t.totals).toEqual({ activeMs: m.activeMs, waitingMs: m.waitingMs, queueMs: m.queueMs, attentionMs: m.attentionMs });
        const attempts = events.filter((e) => e.type === 'attempt_started').map((e) => `${e.step}/${e.activation}.${e.attempt}`);
        const spans = t.spans.filter((s) => s.kind === 'running' || s.kind === 'waiting_person').map((s) => `${s.step}/${s.activation}.${s.attempt}`);
        expect(spans).toEqual(attempts);
        expect(t.spans.filter((s) => s.kind === 'waiting_person').map((s) => s.step)).toEqual(['review']);
        if (events.some((e) => e.type === 'retry_scheduled')) expect(t.spans.filter((s) => s.kind === 'retry_wait').map((s) => [s.step, s.attempt])).toEqual([['draft', 2]]);
      }
    } finally {
      conn.close();
    }
  });

  it('weft validate --json on the examples parses as ValidateJson', async () => {
    const r = await runWeft(['validate', join(REPO_ROOT, 'examples'), '--json']);
    expect(r.code).toBe(0);
    expect(ValidateJson.parse(JSON.parse(r.stdout)).files.length).toBe(7);
  });
});

const STEP_VIEW_KEYS = ['id', 'state', 'activation', 'attempts', 'evidence', 'next'];
const ATTEMPT_VIEW_KEYS = ['id', 'activation', 'number', 'state', 'startedAt', 'endedAt', 'inputHash', 'variant', 'error'];
const pick = (o: object, keys: readonly string[]): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
/** The fields RunDetail adds to an attempt. */
const detailOf = (a: RunDetail['steps'][number]['attempts'][number]): Record<string, unknown> =>
  pick(a, ['input', 'output', 'evidence', 'effect', 'idempotencyKey', 'timeoutMs', 'meta', 'queuedAtMs', 'startedAtMs', 'endedAtMs']);
