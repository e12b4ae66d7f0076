// Read models and messages as tables of valid and invalid samples: the stream messages, the
// error body, health, workflow views (with the real example definitions), the revise plan and
// outcome (test/cli/revise-cli.test.ts parses what `weft revise --json` really prints), the
// events of a revision, the list queries and the send answer.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ApiErrorBody, API_ERROR_CODES, API_ERROR_STATUS } from '../../../shared/api/api-error.ts';
import { EventPageQuery } from '../../../shared/api/event-page.ts';
import { HealthInfo } from '../../../shared/api/health-info.ts';
import { ReviseOutcome, RevisePlan } from '../../../shared/api/input-commands.ts';
import { RunActionResult } from '../../../shared/api/run-action.ts';
import { RunListQuery } from '../../../shared/api/run-summary.ts';
import { SendEventResult } from '../../../shared/api/send-event-command.ts';
import { StreamServerMessage, StreamSubscribe } from '../../../shared/api/stream-messages.ts';
import { ValidateRequest, WorkflowDetail, WorkflowSummary, WorkflowVersionDetail } from '../../../shared/api/workflow-views.ts';
import { EVENT_TYPES } from '../../../shared/events/run-event.ts';
import { RunEventRecord } from '../../../shared/api/run-event-record.ts';
import { REPO_ROOT } from '../../cli/run-weft.ts';

const event = { runId: 'r1', seq: 3, at: 1_764_585_146_442, type: 'run_state_changed', step: null, activation: null, attempt: null, data: { state: 'waiting' }, reason: 'waiting on "review"' };
const askStep = { stepId: 'send_quote', kind: 'command', action: 'ask', reason: 'its input changed after its effect happened', evidenceId: 'e1' };
const laterStep = { stepId: 'done', kind: 'end', action: 'later', reason: 'decided when send_quote has settled', after: ['send_quote'] };
const summary = { id: 'trip-saga', file: 'trip-saga.weft.json', version: 1, name: 'Trip saga', stepCount: 9, errors: 0, warnings: 0 };

const table: { name: string; schema: z.ZodType; valid: unknown[]; invalid: [unknown, (string | number)[]][] }[] = [
  {
    name: 'stream subscribe',
    schema: StreamSubscribe,
    valid: [{ subscribe: { runs: 'all' } }, { subscribe: { runs: ['r1', 'r2'] }, after: 1042 }, { subscribe: { runs: 'all' }, after: 0, batch: true, elide: 1_048_576 }],
    invalid: [[{ subscribe: { runs: [] } }, ['subscribe', 'runs']], [{ subscribe: { runs: 'all' }, after: -1 }, ['after']], [{ subscribe: { runs: 'all' }, elide: 100 }, ['elide']], [{ subscribe: { runs: 'all' }, elide: 64 * 1024 * 1024 }, ['elide']], [{ subscribe: { runs: 'some' } }, ['subscribe', 'runs']], [{ subscribe: { runs: [''] } }, ['subscribe', 'runs', 0]]],
  },
  {
    name: 'stream server message',
    schema: StreamServerMessage,
    valid: [{ cursor: 7, event }, { resync: { after: 7, reason: 'the client fell 10,000 events behind' } }, { subscribed: { cursor: 7 } }, { error: { code: 'bad-input', message: 'the message: $.subscribe: is required', path: '$.subscribe' } }],
    invalid: [[{ cursor: 1.5, event }, []], [{ cursor: 7 }, []]],
  },
  {
    name: 'error body',
    schema: ApiErrorBody,
    valid: [{ error: { code: 'refused', message: 'cannot retry step "a": it is succeeded' } }],
    invalid: [[{ error: { code: 'teapot', message: 'x' } }, ['error', 'code']], [{ error: { code: 'refused', message: '' } }, ['error', 'message']]],
  },
  {
    name: 'health',
    schema: HealthInfo,
    valid: [{ version: '0.1.0', workspace: '/w', store: '/w/.weft/weft.db' }],
    invalid: [[{ version: '0.1.0', workspace: '/w' }, ['store']]],
  },
  {
    name: 'workflow summary',
    schema: WorkflowSummary,
    valid: [summary, { ...summary, id: null, version: null, name: null, stepCount: 0, errors: 1 }],
    invalid: [[{ ...summary, errors: -1 }, ['errors']], [{ ...summary, steps: 9 }, []]],
  },
  {
    name: 'revise plan',
    schema: RevisePlan,
    valid: [
      { runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [] },
      { runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [askStep, { stepId: 'price', kind: 'transform', action: 'rerun', reason: 'its input changed (onRevise is rerun by default)' }, laterStep] },
    ],
    invalid: [
      [{ runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [{ ...askStep, action: 'maybe' }] }, ['plan', 0, 'action']],
      [{ runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [{ ...askStep, kind: 'robot' }] }, ['plan', 0, 'kind']],
      [{ runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [{ ...laterStep, after: [] }] }, ['plan', 0, 'after']],
      [{ runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 1, plan: [] }, ['inputRevision']],
      [{ runId: 'r1', state: 'succeeded', dryRun: false, inputRevision: 2, plan: [] }, ['dryRun']],
      // The shape first guessed here, before `weft revise --dry-run --json` printed anything.
      [{ runId: 'r1', dryRun: true, steps: [{ stepId: 'a', plan: 'ask', why: 'x' }] }, ['state']],
    ],
  },
  {
    name: 'revise outcome',
    schema: ReviseOutcome,
    valid: [{ runId: 'r1', state: 'needs_attention', inputRevision: 3, plan: [askStep] }],
    invalid: [
      [{ runId: 'r1', state: 'needs_attention', inputRevision: 3 }, ['plan']],
      [{ runId: 'r1', state: 'needs_attention', dryRun: true, inputRevision: 3, plan: [] }, []],
    ],
  },
  {
    name: 'run action result',
    schema: RunActionResult,
    valid: [{ runId: 'r1', state: 'paused' }, { runId: 'r1', state: 'succeeded', dryRun: true, inputRevision: 2, plan: [] }, { runId: 'r1', state: 'waiting', inputRevision: 2, plan: [laterStep] }],
    invalid: [[{ runId: 'r1', state: 'sleeping' }, []], [{ runId: 'r1', dryRun: true, steps: [] }, []]],
  },
  {
    name: 'event record of a revision',
    schema: RunEventRecord,
    valid: [
      { ...event, type: 'revision_held', step: 'send_quote', activation: 2, data: { evidenceId: 'e1', inputHash: 'h2', input: { cents: 750 } }, reason: 'its input changed after its effect happened' },
      { ...event, type: 'operator_action', step: 'send_quote', data: { action: 'keep', by: 'ops' }, reason: 'kept by ops: the customer has it' },
    ],
    invalid: [
      [{ ...event, type: 'revision_held', step: 'send_quote', data: { inputHash: 'h2', input: null } }, ['data', 'evidenceId']],
      [{ ...event, type: 'operator_action', data: { action: 'forget', by: 'ops' } }, ['data', 'action']],
    ],
  },
  {
    name: 'send result',
    schema: SendEventResult,
    valid: [{ id: 'pay-1', status: 'delivered', runId: 'r1', state: 'waiting' }, { id: 'pay-1', status: 'kept' }],
    invalid: [[{ id: 'pay-1', status: 'lost' }, ['status']]],
  },
  {
    name: 'validate request',
    schema: ValidateRequest,
    valid: [{ text: '{"format": "weft/v1"}' }, { definition: { format: 'weft/v1' } }],
    invalid: [[{ text: 1 }, ['text']], [{}, []], [{ text: '{}', definition: {} }, []]],
  },
];

describe('other read models and messages', () => {
  for (const row of table) {
    it(`${row.name}: accepts the valid samples and refuses the invalid ones at their path`, () => {
      for (const v of row.valid) expect(row.schema.safeParse(v).error?.issues, JSON.stringify(v)).toBeUndefined();
      for (const [v, path] of row.invalid) {
        const r = row.schema.safeParse(v);
        expect(r.success, JSON.stringify(v)).toBe(false);
        expect(r.error?.issues[0]?.path, JSON.stringify(v)).toEqual(path);
      }
    });
  }

  it('queries coerce the query-string numbers and refuse the rest', () => {
    expect(EventPageQuery.parse({ after: '40', limit: '100' })).toEqual({ after: 40, limit: 100 });
    expect(EventPageQuery.safeParse({ limit: '5000' }).error?.issues[0]?.path).toEqual(['limit']);
    expect(RunListQuery.parse({ workflow: 'trip-saga', state: 'failed', limit: '20' })).toEqual({ workflow: 'trip-saga', state: 'failed', limit: 20 });
    expect(RunListQuery.safeParse({ state: 'broken' }).error?.issues[0]?.path).toEqual(['state']);
  });

  it('WorkflowDetail and WorkflowVersionDetail hold the real example definitions', () => {
    const dir = join(REPO_ROOT, 'examples');
    const files = readdirSync(dir).filter((f) => f.endsWith('.weft.json'));
    expect(files.length).toBe(7);
    for (const f of files) {
      const definition: unknown = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      WorkflowDetail.parse({ summary: { ...summary, file: f }, definition, diagnostics: [], versions: [{ version: 1, definitionHash: 'abc', savedAtMs: 1 }] });
      WorkflowVersionDetail.parse({ id: 'x', version: 1, definitionHash: 'abc', savedAtMs: 1, definition });
    }
  });

  it('every event type is in the RunEventRecord union, and every error code has its status', () => {
    const options = RunEventRecord.options.map((o) => o.shape.type.value);
    expect([...options].sort()).toEqual([...EVENT_TYPES].sort());
    expect(API_ERROR_CODES.map((c) => API_ERROR_STATUS[c])).toEqual([400, 401, 403, 404, 405, 409, 413, 421, 426, 500]);
  });
});
