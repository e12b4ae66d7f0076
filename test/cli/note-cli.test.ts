// weft note through the real binary on a real store: a note on a settled run and on one of its
// steps is recorded as note_added and shown by weft inspect (text and --json); a waiting run takes
// one without moving on; a blank or over-long text, an unknown run or step are refused (exit 2)
// with nothing written.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-note-'));
const db = join(dir, 'store.db');
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_USER: 'ops-default' });
afterAll(() => restoreEnv());
const done = join(dir, 'done.weft.json');
writeFileSync(done, JSON.stringify({
  format: 'weft/v1', id: 'done', version: 1, name: 'Done',
  steps: [{ id: 'price', kind: 'transform', config: { expression: '{"cents": 250}' } }, { id: 'finish', kind: 'end' }],
  edges: [{ id: 'e1', from: 'price', to: 'finish' }],
}));
const ask = join(dir, 'ask.weft.json');
writeFileSync(ask, JSON.stringify({
  format: 'weft/v1', id: 'ask', version: 1, name: 'Ask',
  steps: [{ id: 'approve', kind: 'human', deadlineMs: 259_200_000, config: { task: 'approve', title: 'Approve' } }, { id: 'finish', kind: 'end' }],
  edges: [{ id: 'e1', from: 'approve', to: 'finish', on: ['succeeded', 'expired'] }],
}));

const notesIn = (runId: string): { type: string; step: string | null; data: string }[] => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT type, step, data FROM events WHERE run_id = ? AND type = 'note_added' ORDER BY seq").all(runId) as { type: string; step: string | null; data: string }[];
  } finally {
    d.close();
  }
};
const start = async (file: string): Promise<string> => {
  const r = await runWeft(['run', file, '--db', db, '--json']);
  expect([0, 3]).toContain(r.code);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
};

let settled = '';
beforeAll(async () => {
  settled = await start(done);
});

describe('weft note', () => {
  it('notes a settled run and one of its steps, and weft inspect shows both', async () => {
    const onRun = await runWeft(['note', settled, 'priced by the old table; see ticket OPS-12', '--db', db]);
    expect(onRun.stderr).toBe('');
    expect(onRun.code).toBe(0);
    expect(onRun.stdout).toBe(`note added to run ${settled} by ops-default\n`);
    const onStep = await runWeft(['note', settled, 'price', 'checked by hand', '--by', 'ana', '--db', db, '--json']);
    expect(onStep.code).toBe(0);
    expect(JSON.parse(onStep.stdout)).toEqual({ runId: settled, state: 'succeeded', step: 'price', text: 'checked by hand', by: 'ana' });
    expect(notesIn(settled).map((n) => [n.step, JSON.parse(n.data)])).toEqual([
      [null, { text: 'priced by the old table; see ticket OPS-12', by: 'ops-default' }],
      ['price', { text: 'checked by hand', by: 'ana' }],
    ]);
    const json = await runWeft(['inspect', settled, '--db', db, '--json']);
    const record = RunDetail.parse(JSON.parse(json.stdout));
    expect(record.run.state).toBe('succeeded');
    expect(record.run.notes?.map((n) => [n.stepId, n.by, n.text])).toEqual([[null, 'ops-default', 'priced by the old table; see ticket OPS-12'], ['price', 'ana', 'checked by hand']]);
    const text = await runWeft(['inspect', settled, '--db', db]);
    expect(text.stdout).toMatch(/^Note by ops-default at \S+: priced by the old table; see ticket OPS-12$/m);
    expect(text.stdout).toMatch(/^Note on "price" by ana at \S+: checked by hand$/m);
  });

  it('notes a waiting run without moving it on', async () => {
    const waiting = await start(ask);
    const r = await runWeft(['note', waiting, 'approve', 'the approver is on leave until Monday', '--db', db, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runId: waiting, state: 'waiting', step: 'approve' });
    expect(notesIn(waiting)).toHaveLength(1);
  });

  it('refuses a blank or over-long text, an unknown step or run, with nothing written', async () => {
    const before = notesIn(settled).length;
    const blank = await runWeft(['note', settled, '   ', '--db', db]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('$.text: must not be empty or only spaces');
    const long = await runWeft(['note', settled, 'x'.repeat(4001), '--db', db]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('a note is at most 4000 characters');
    const step = await runWeft(['note', settled, 'nope', 'text', '--db', db]);
    expect(step.code).toBe(2);
    expect(step.stderr).toContain(`run ${settled} has no step "nope"; its steps are price, finish`);
    const run = await runWeft(['note', 'zzzzzz', 'text', '--db', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/zzzzzz/);
    const usage = await runWeft(['note', settled, '--db', db]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('give RUN, optionally STEP, and the note TEXT');
    expect(notesIn(settled)).toHaveLength(before);
  });
});
