// A workflow without code of its own must not run a child workflow's command from a workspace the
// user has not trusted: the subworkflow step fails with untrusted_workspace (and, escalated,
// waits for a person), the child never starts and its command never runs. Trusting the
// workspace and retrying the step runs it.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-child-trust-'));
const db = join(dir, 'store.db');
const marker = join(dir, 'the-command-ran');
const env = { WEFT_CONFIG_DIR: join(dir, 'config') };

writeFileSync(
  join(dir, 'parent.weft.json'),
  JSON.stringify({
    format: 'weft/v1',
    id: 'parent',
    version: 1,
    name: 'Parent without code',
    steps: [
      { id: 'call', kind: 'subworkflow', config: { workflow: { id: 'child', version: 1 } }, onExhausted: 'escalate' },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'e1', from: 'call', to: 'done' }],
  }),
);
writeFileSync(
  join(dir, 'child.weft.json'),
  JSON.stringify({
    format: 'weft/v1',
    id: 'child',
    version: 1,
    name: 'Child with a command',
    steps: [
      { id: 'touch', kind: 'command', config: { argv: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'e1', from: 'touch', to: 'done' }],
  }),
);

interface Inspected {
  steps: { id: string; state: string; attempts: { error?: { code: string; message: string } | null }[] }[];
}

it('refuses a child workflow with a command step from an untrusted workspace, and runs it once trusted', async () => {
  const run = await runWeft(['run', join(dir, 'parent.weft.json'), '--db', db, '--json'], dir, { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(3);
  const { runId, state } = JSON.parse(run.stdout) as { runId: string; state: string };
  expect(state).toBe('needs_attention');
  expect(existsSync(marker)).toBe(false);

  const inspect = await runWeft(['inspect', runId, '--db', db, '--json'], dir, { env });
  const call = (JSON.parse(inspect.stdout) as Inspected).steps.find((s) => s.id === 'call');
  const error = call?.attempts.at(-1)?.error;
  expect(error?.code).toBe('untrusted_workspace');
  expect(error?.message).toContain(`child workflow "child" v1 (started by step "call" of run ${runId}) runs scripts or commands (touch) from ${dir}, a workspace you have not trusted`);
  expect(error?.message).toContain(`weft trust ${dir}`);
  const events = await runWeft(['events', runId, '--db', db, '--json'], dir, { env });
  expect((JSON.parse(events.stdout) as { events: { type: string }[] }).events.map((e) => e.type)).not.toContain('child_started');

  expect((await runWeft(['trust', dir], dir, { env })).code).toBe(0);
  const retried = await runWeft(['retry', runId, 'call', '--db', db, '--json'], dir, { env });
  expect(retried.stderr).toBe('');
  // Nothing the retry runs again recorded a cost (docs/runs.md, "Billed again").
  expect(JSON.parse(retried.stdout)).toEqual({ runId, state: 'succeeded', rebill: { action: 'retry', steps: [], total: 0, upTo: 0, currency: null } });
  expect(existsSync(marker)).toBe(true);
});
