// Every command schema of shared/api as a table of valid and invalid inputs (n8n style): each
// invalid value is refused at the path of the field that is wrong, and each valid one parses.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { badInput } from '../../../shared/api/api-error.ts';
import { ForkCommand, ReviseCommand } from '../../../shared/api/input-commands.ts';
import { RunAction } from '../../../shared/api/run-action.ts';
import { CancelCommand, PauseCommand, ResumeCommand } from '../../../shared/api/run-control-commands.ts';
import { SendEventCommand } from '../../../shared/api/send-event-command.ts';
import { StartRunCommand } from '../../../shared/api/start-run-command.ts';
import { KeepCommand, ResolveCommand, RetryCommand, SkipCommand } from '../../../shared/api/step-commands.ts';
import { TaskAction } from '../../../shared/api/task-action.ts';
import { ApproveCommand, ReassignCommand, RejectCommand } from '../../../shared/api/task-commands.ts';

type Path = (string | number)[];
interface Row {
  name: string;
  schema: z.ZodType;
  valid: unknown[];
  /** A malformed value and the path its first issue must name. */
  invalid: [unknown, Path][];
}

let deep: unknown = 1;
for (let i = 0; i < 100_000; i++) deep = { d: deep };

const table: Row[] = [
  {
    name: 'start run',
    schema: StartRunCommand,
    valid: [
      { workflow: 'order-payment', input: { orderId: 'A17' } },
      { workflow: 'order-payment', version: 2, input: null, key: 'A17', priority: -3 },
    ],
    invalid: [
      [{ input: {} }, ['workflow']],
      [{ workflow: 'Order Payment', input: {} }, ['workflow']],
      [{ workflow: 'order-payment' }, ['input']],
      [{ workflow: 'order-payment', input: { amount: Infinity } }, ['input', 'amount']],
      [{ workflow: 'order-payment', input: {}, version: 0 }, ['version']],
      [{ workflow: 'order-payment', input: {}, version: 1.5 }, ['version']],
      [{ workflow: 'order-payment', input: {}, priority: 'high' }, ['priority']],
      [{ workflow: 'order-payment', input: {}, key: '' }, ['key']],
      [{ workflow: 'x'.repeat(50_000), input: {} }, ['workflow']],
    ],
  },
  {
    name: 'revise',
    schema: ReviseCommand,
    valid: [{ action: 'revise', input: { orderId: 'A17', revision: 4 } }, { action: 'revise', input: {}, dryRun: true, by: 'ana', reason: 'typo in the address' }],
    invalid: [
      [{ action: 'revise' }, ['input']],
      [{ action: 'revise', input: {}, dryRun: 'yes' }, ['dryRun']],
      [{ action: 'revise', input: {}, by: '' }, ['by']],
    ],
  },
  {
    name: 'fork',
    schema: ForkCommand,
    valid: [{ action: 'fork', from: 'verify' }, { action: 'fork', from: 'verify', input: { orderId: 'A18' }, reason: 'try the other card' }],
    invalid: [
      [{ action: 'fork' }, ['from']],
      [{ action: 'fork', from: '../etc' }, ['from']],
      [{ action: 'fork', from: 'verify', input: deep }, ['input', ...Array.from({ length: 65 }, () => 'd')]],
    ],
  },
  {
    name: 'pause',
    schema: PauseCommand,
    valid: [{ action: 'pause' }, { action: 'pause', by: 'ana', reason: 'deploy window' }],
    invalid: [
      [{ action: 'pause', reason: '   ' }, ['reason']],
      [{ action: 'pause', reason: 'x'.repeat(4001) }, ['reason']],
      [{ action: 'pause', until: 5 }, []],
    ],
  },
  {
    name: 'resume',
    schema: ResumeCommand,
    valid: [{ action: 'resume' }, { action: 'resume', by: 'ana' }],
    invalid: [[{ action: 'resume', by: 7 }, ['by']]],
  },
  {
    name: 'cancel',
    schema: CancelCommand,
    valid: [{ action: 'cancel', reason: 'duplicate order' }],
    invalid: [
      [{ action: 'cancel', by: ' ' }, ['by']],
      [{ action: 'pause' }, ['action']],
    ],
  },
  {
    name: 'retry',
    schema: RetryCommand,
    valid: [{ action: 'retry', step: 'verify' }, { action: 'retry', step: 'verify', input: null, by: 'ana', reason: 'the API is back' }],
    invalid: [
      [{ action: 'retry' }, ['step']],
      [{ action: 'retry', step: '' }, ['step']],
      [{ action: 'retry', step: '9lives' }, ['step']],
      [{ action: 'retry', step: 'verify', input: { at: new Date(0) } }, ['input', 'at']],
    ],
  },
  {
    name: 'skip',
    schema: SkipCommand,
    valid: [{ action: 'skip', step: 'lookup', output: { id: 7 }, reason: 'found by hand' }],
    invalid: [
      [{ action: 'skip', step: 'lookup', output: { id: 7 } }, ['reason']],
      [{ action: 'skip', step: 'lookup', output: { id: 7 }, reason: '' }, ['reason']],
      [{ action: 'skip', step: 'lookup', reason: 'found by hand' }, ['output']],
    ],
  },
  {
    name: 'resolve',
    schema: ResolveCommand,
    valid: [{ action: 'resolve', step: 'write', as: 'succeeded', evidence: { revision: 4 } }, { action: 'resolve', step: 'write', as: 'failed', reason: 'no record of it' }],
    invalid: [
      [{ action: 'resolve', step: 'write' }, ['as']],
      [{ action: 'resolve', step: 'write', as: 'unknown' }, ['as']],
      [{ action: 'resolve', step: 'write', as: 'succeeded', evidence: { n: Number.NaN } }, ['evidence', 'n']],
    ],
  },
  {
    name: 'keep',
    schema: KeepCommand,
    valid: [{ action: 'keep', step: 'send_quote', reason: 'the quote already went out' }],
    invalid: [
      [{ action: 'keep' }, ['step']],
      [{ action: 'keep', step: 'send_quote', output: {} }, []],
    ],
  },
  {
    name: 'approve',
    schema: ApproveCommand,
    valid: [{ action: 'approve', step: 'review' }, { action: 'approve', step: 'review', data: { carrier: 'dhl' }, choice: 'urgent', by: 'ana' }],
    invalid: [
      [{ action: 'approve', step: 'review', choice: '' }, ['choice']],
      [{ action: 'approve', step: 'review', reason: 'looks good' }, []],
      [{ action: 'approve', step: 'review', data: { n: 1n } }, ['data', 'n']],
    ],
  },
  {
    name: 'reject',
    schema: RejectCommand,
    valid: [{ action: 'reject', step: 'review', reason: 'cite the source', by: 'ana' }],
    invalid: [
      [{ action: 'reject', step: 'review' }, ['reason']],
      [{ action: 'reject', step: 'review', reason: ' \n ' }, ['reason']],
    ],
  },
  {
    name: 'reassign',
    schema: ReassignCommand,
    valid: [{ action: 'reassign', step: 'review', to: 'ben', by: 'ana' }],
    invalid: [
      [{ action: 'reassign', step: 'review', to: '' }, ['to']],
      [{ action: 'reassign', step: 'review' }, ['to']],
      [{ action: 'reassign', step: 'review', to: 'b'.repeat(201) }, ['to']],
    ],
  },
  {
    name: 'send event',
    schema: SendEventCommand,
    valid: [{ name: 'payment.received', key: 'A17' }, { name: 'payment.received', key: 'A17', id: 'pay-1', data: { amount: 12 } }],
    invalid: [
      [{ key: 'A17' }, ['name']],
      [{ name: 'payment.received' }, ['key']],
      [{ name: 'payment.received', key: 'A17', data: { amount: 1e999999 } }, ['data', 'amount']],
      [{ name: 'payment.received', key: 'A17', id: '' }, ['id']],
      [{ name: 'payment.received', key: 'A17', extra: true }, []],
    ],
  },
];

describe('command schemas', () => {
  for (const row of table) {
    describe(row.name, () => {
      it.each(row.valid.map((v) => [JSON.stringify(v), v]))('accepts %s', (_label, value) => {
        const r = row.schema.safeParse(value);
        expect(r.error?.issues).toBeUndefined();
        expect(r.data).toEqual(value);
      });
      it.each(row.invalid.map(([v, path], i) => [i, v, path] as const))('refuses malformed value %i at its path', (_i, value, path) => {
        const r = row.schema.safeParse(value);
        expect(r.success).toBe(false);
        expect(r.error?.issues[0]?.path).toEqual(path);
      });
    });
  }
});

describe('action envelopes', () => {
  it('POST /api/runs/:id/actions takes every run action and only those', () => {
    for (const row of table) {
      const inEnvelope = ['revise', 'fork', 'pause', 'resume', 'cancel', 'retry', 'skip', 'resolve', 'keep'].includes(row.name);
      for (const v of row.valid) expect(RunAction.safeParse(v).success, `${row.name}: ${JSON.stringify(v)}`).toBe(inEnvelope);
    }
    const r = RunAction.safeParse({ action: 'approve', step: 'review' });
    expect(r.error?.issues[0]?.path).toEqual(['action']);
    expect(r.error?.issues[0]?.message).toMatch(/give "action" as one of pause, resume, cancel, retry, skip, resolve, keep, revise, fork/);
    expect(RunAction.safeParse({ action: 'skip', step: 'lookup', output: 1 }).error?.issues[0]?.path).toEqual(['reason']);
  });

  it('POST /api/tasks/:runId/:stepId takes approve, reject and reassign, with the step in the route', () => {
    expect(TaskAction.parse({ action: 'approve', data: { carrier: 'dhl' } })).toEqual({ action: 'approve', data: { carrier: 'dhl' } });
    expect(TaskAction.parse({ action: 'reassign', to: 'ben' })).toEqual({ action: 'reassign', to: 'ben' });
    const cases: [unknown, Path][] = [
      [{ action: 'reassign', to: '' }, ['to']],
      [{ action: 'reject' }, ['reason']],
      [{ action: 'approve', step: 'review' }, []],
      [{ action: 'retry' }, ['action']],
    ];
    for (const [v, path] of cases) expect(TaskAction.safeParse(v).error?.issues[0]?.path, JSON.stringify(v)).toEqual(path);
  });
});

describe('badInput', () => {
  it('says what, where and how to fix in one line, with a JSON path', () => {
    const empty = badInput(TaskAction.safeParse({ action: 'reassign', to: '' }).error as z.ZodError, 'the request body');
    expect(empty).toEqual({ error: { code: 'bad-input', path: '$.to', message: 'the request body: $.to: must not be empty or only spaces' } });
    const missing = badInput(SkipCommand.safeParse({ action: 'skip', step: 'a', output: 1 }).error as z.ZodError, 'the request body');
    expect(missing.error.message).toBe('the request body: $.reason: is required (expected string)');
    const unknown = badInput(PauseCommand.safeParse({ action: 'pause', until: 5 }).error as z.ZodError, 'the request body');
    expect(unknown.error.path).toBe('$.until');
    expect(unknown.error.message).toMatch(/unknown field "until"; remove it/);
    const nested = badInput(StartRunCommand.safeParse({ workflow: 'a', input: { items: [1, Infinity] } }).error as z.ZodError, 'the request body');
    expect(nested.error.path).toBe('$.input.items[1]');
    for (const b of [empty, missing, unknown, nested]) expect(b.error.message).not.toContain('\n');
  });
});
