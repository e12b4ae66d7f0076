// weft run --key (idempotent creation) and workspace trust, through the real binary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-flow-'));
const db = join(dir, 'store.db');
// Every weft child of this file uses its own config folder; restored when the file is done.
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') });
afterAll(() => restoreEnv());

const write = (name: string, steps: unknown[]) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ format: 'weft/v1', id: name.replace('.weft.json', ''), version: 1, name, steps: [...steps, { id: 'done', kind: 'end' }], edges: [{ id: 'e', from: (steps[0] as { id: string }).id, to: 'done' }] }));
  return file;
};

describe('weft run --key', () => {
  it('returns the first run for a repeated key instead of starting another', async () => {
    const file = write('keyed.weft.json', [{ id: 'a', kind: 'transform', config: { expression: '1' } }]);
    const one = JSON.parse((await runWeft(['run', file, '--db', db, '--key', 'order-17', '--json'])).stdout) as { runId: string };
    const two = JSON.parse((await runWeft(['run', file, '--db', db, '--key', 'order-17', '--json'])).stdout) as { runId: string };
    const three = JSON.parse((await runWeft(['run', file, '--db', db, '--key', 'order-18', '--json'])).stdout) as { runId: string };
    expect(two.runId).toBe(one.runId);
    expect(three.runId).not.toBe(one.runId);
    const runs = JSON.parse((await runWeft(['runs', '--db', db, '--json'])).stdout) as { runs: unknown[] };
    expect(runs.runs).toHaveLength(2);
  });
});

describe('workspace trust', () => {
  it('refuses commands from an untrusted workspace, and runs them once trusted', async () => {
    const file = write('shell.weft.json', [{ id: 'hello', kind: 'command', config: { argv: ['sh', '-c', 'echo \'"hi"\''] } }]);
    const refused = await runWeft(['run', file, '--db', db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`runs scripts or commands (hello) from ${dir}, a workspace you have not trusted`);
    expect(refused.stderr).toContain(`weft trust ${dir}`);
    expect(refused.stderr).not.toContain(STACK_LINE);
    expect((await runWeft(['trust', dir])).code).toBe(0);
    const ran = await runWeft(['run', file, '--db', db, '--json']);
    expect(JSON.parse(ran.stdout)).toMatchObject({ state: 'succeeded' });
    expect((await runWeft(['trust', dir, '--revoke'])).code).toBe(0);
    expect((await runWeft(['run', file, '--db', db])).code).toBe(2);
  });
});
