// `weft resume` of many runs reports them in one write (issue 20, step 9): a line per run written
// one by one cost a resume of 1,000 parked runs a thousand writes to its stdout. The lines, their
// order and the exit code are the contract and stay as they were; this holds both to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../engine/cli/main.ts';
import type { CliIo } from '../../engine/cli/cli-io.ts';
import { weftInProcess } from './capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-resume-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, 'weft.db');
const file = join(dir, 'hold.weft.json');
const ids: string[] = [];

beforeAll(async () => {
  writeFileSync(
    file,
    JSON.stringify({
      format: 'weft/v1',
      id: 'hold',
      version: 1,
      name: 'Hold',
      steps: [
        { id: 'pause', kind: 'wait', config: { durationMs: 3_600_000 } },
        { id: 'done', kind: 'end' },
      ],
      edges: [{ id: 'e1', from: 'pause', to: 'done' }],
    }),
  );
  for (let i = 0; i < 3; i++) {
    const r = await weftInProcess(['run', file, '--db', db, '--json'], dir);
    expect(r.code).toBe(3);
    ids.push((JSON.parse(r.stdout) as { runId: string }).runId);
  }
});

/** main() with a stdout that keeps each write apart. */
async function resumeWrites(args: readonly string[]): Promise<{ code: number; writes: string[]; stderr: string }> {
  const writes: string[] = [];
  let stderr = '';
  const io: CliIo = { cwd: dir, stdout: { write: (s: string) => writes.push(s) > 0 }, stderr: { write: (s: string) => (stderr += s).length > 0 } };
  const code = await main(['resume', ...args, '--db', db], io);
  return { code, writes, stderr };
}

describe('weft resume of several runs', () => {
  it('writes one line per run, in one write (--json)', async () => {
    const { code, writes, stderr } = await resumeWrites(['--json']);
    expect({ code, stderr }).toEqual({ code: 3, stderr: '' });
    expect(writes).toHaveLength(1);
    const lines = (writes[0] ?? '').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as unknown).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [...ids].sort().map((runId) => ({ runId, state: 'waiting' })),
    );
  });

  it('writes one line per run, in one write (text)', async () => {
    const { code, writes, stderr } = await resumeWrites([]);
    expect({ code, stderr }).toEqual({ code: 3, stderr: '' });
    expect(writes).toHaveLength(1);
    expect((writes[0] ?? '').split('\n').sort()).toEqual(['', ...[...ids].sort().map((id) => `run ${id}: waiting`)]);
  });
});
