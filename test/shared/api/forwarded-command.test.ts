// ForwardedCommand (POST /api/commands) as a table of valid and invalid bodies: each command of
// the union parses, and nothing that names a path, a working folder, a store or a command line
// gets through (every such field is an unknown field, at its path). The answers' registry names a
// schema for every command.
import { describe, expect, it } from 'vitest';
import { FORWARDED_ANSWERS, FORWARDED_COMMANDS, ForwardedCommand } from '../../../shared/api/forwarded-command.ts';

const definition = '{"format": "weft/v1", "id": "hello", "version": 1, "name": "Hello", "steps": [], "edges": []}';

describe('ForwardedCommand', () => {
  it.each([
    { command: 'run', definition, input: { orderId: 'A17' } },
    { command: 'run', definition, input: null, key: 'A17', priority: 2, debug: { breakpoints: ['draft'], pins: { research: { notes: [] } } } },
    { command: 'act', run: 'rmx4k5', action: { action: 'cancel', by: 'ana', reason: 'not needed' } },
    { command: 'act', run: 'rmx4k5', action: { action: 'revise', input: { qty: 3 }, dryRun: true } },
    { command: 'act', run: 'rmx4k5', action: { action: 'fork', from: 'verify' } },
    { command: 'answer', run: 'rmx4k5', step: 'review', answer: { action: 'approve', data: { carrier: 'dhl' } } },
    { command: 'send', event: { name: 'payment.received', key: 'A17', data: { amount: 12 } } },
    { command: 'resume' },
    { command: 'resume', run: 'rmx4k5', by: 'ana', reason: 'go on' },
  ])('takes %j', (body) => {
    expect(ForwardedCommand.parse(body)).toEqual(body);
  });

  it.each<[unknown, (string | number)[]]>([
    [{ command: 'run', definition, input: {}, db: '/home/ana/other.db' }, ['db']],
    [{ command: 'run', definition, input: {}, cwd: '/etc' }, ['cwd']],
    [{ command: 'run', definition, input: {}, file: '/tmp/evil.weft.json' }, ['file']],
    [{ command: 'run', definition, input: {}, workspaceDir: '/tmp' }, ['workspaceDir']],
    [{ command: 'run', definition, input: {}, workflow: 'hello' }, ['workflow']],
    [{ command: 'run', input: {} }, ['definition']],
    [{ command: 'run', definition: '', input: {} }, ['definition']],
    [{ command: 'act', run: 'r1', action: { action: 'cancel' }, argv: ['cancel', 'r1'] }, ['argv']],
    [{ command: 'act', run: 'r1', action: { action: 'cancel', db: '/x.db' } }, ['action', 'db']],
    [{ command: 'act', run: 'x'.repeat(131_073), action: { action: 'cancel' } }, ['run']],
    [{ command: 'answer', run: 'r1', step: 'review', answer: { action: 'approve' }, store: '/x.db' }, ['store']],
    [{ command: 'send', event: { name: 'go', key: 'k' }, cwd: '/' }, ['cwd']],
    [{ command: 'resume', db: '/x.db' }, ['db']],
    [{ command: 'cli', argv: ['run', 'x'] }, ['command']],
  ])('refuses %j at its path', (body, path) => {
    const issue = ForwardedCommand.safeParse(body).error?.issues[0];
    const at = issue?.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue?.path;
    expect(at).toEqual(path);
  });

  it('names every command, with an answer schema for each', () => {
    expect(ForwardedCommand.safeParse({ command: 'cli' }).error?.issues[0]?.message).toBe('unknown command; give "command" as one of run, act, answer, send, resume');
    expect(Object.keys(FORWARDED_ANSWERS).sort()).toEqual([...FORWARDED_COMMANDS].sort());
  });
});
