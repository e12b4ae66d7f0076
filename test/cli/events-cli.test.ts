// `weft events` pages and follows, through the real binary: a page of --after/--limit (how pages
// join to the whole log, and every bad paging value: events-paging.test.ts, in-process);
// --follow, started while a run is going or waiting for a person, prints each event once as other
// processes commit it and exits with the run's code (0 succeeded, 1 failed or cancelled); bad
// paging values are usage errors (exit 2).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { until } from '../engine/until.ts';
import { WAIT_BOUND_MS } from '../wait-until.ts';
import { REPO_ROOT, runWeft, STACK_LINE, type WeftResult } from './run-weft.ts';

const BIN = fileURLToPath(new URL('../../bin/weft.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weft-cli-events-'));
const db = join(dir, 'store.db');

const write = (name: string, workflow: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(workflow));
  return file;
};
const chainFile = write('chain.weft.json', {
  format: 'weft/v1', id: 'chain', version: 1, name: 'Chain',
  steps: [...[0, 1, 2, 3, 4].map((i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}}` } })), { id: 'done', kind: 'end' }],
  edges: [0, 1, 2, 3, 4].map((i) => ({ id: `e${i}`, from: `s${i}`, to: i === 4 ? 'done' : `s${i + 1}` })),
});
const slowFile = write('slow.weft.json', {
  format: 'weft/v1', id: 'slow', version: 1, name: 'Slow',
  steps: [
    { id: 'first', kind: 'transform', config: { expression: '1' } },
    { id: 'sleep', kind: 'command', config: { argv: ['sh', '-c', 'sleep 3; echo 2'] } },
    { id: 'last', kind: 'transform', config: { expression: '3' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'first', to: 'sleep' }, { id: 'b', from: 'sleep', to: 'last' }, { id: 'c', from: 'last', to: 'done' }],
});
// The command step needs a trusted workspace; trust is kept in this test's own config folder.
const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
const reviewFile = write('review.weft.json', {
  format: 'weft/v1', id: 'review', version: 1, name: 'Review',
  steps: [
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Ship it?' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
    { id: 'stopped', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [{ id: 'a', from: 'review', to: 'done' }, { id: 'b', from: 'review', to: 'stopped', on: ['rejected', 'expired'] }],
});

interface Printed {
  seq: number;
  type: string;
}

/** A `weft` process whose stdout lines can be watched while it runs. */
function startWeft(args: readonly string[]): { lines: string[]; done: Promise<WeftResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    lines.splice(0, lines.length, ...stdout.split('\n').filter((l) => l !== ''));
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<WeftResult>((resolve, reject) => {
    // Only a broken follower is killed here (test/wait-until.ts's bound).
    const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_BOUND_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === null) reject(new Error(`weft ${args.join(' ')} was killed (${signal})\n${stderr}`));
      else resolve({ code, stdout, stderr });
    });
  });
  return { lines, done };
}

/** The id of the run of a workflow, once `weft run` (in another process) has created it. */
async function runIdOf(workflowId: string): Promise<string> {
  let id: string | undefined;
  await until(() => {
    try {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        id = (d.prepare('SELECT id FROM runs WHERE workflow_id = ?').get(workflowId) as { id: string } | undefined)?.id;
      } finally {
        d.close();
      }
    } catch {
      id = undefined; // the first `weft run` has not created the store yet
    }
    return id !== undefined;
  }, `a run of ${workflowId}`);
  return id ?? '';
}

const eventsJson = async (runId: string): Promise<Printed[]> => {
  const r = await runWeft(['events', runId, '--db', db, '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { events: Printed[] }).events;
};

describe('weft events: pages', () => {
  // How pages join to the whole log, in JSON and text, and every refused paging value:
  // events-paging.test.ts, in-process. Here one page and one refusal through the binary.
  it('prints a page of --after/--limit as {events, next}, the hint for the next text page on stderr, and refuses --limit 0 with exit 2', async () => {
    const ran = await runWeft(['run', chainFile, '--db', db, '--json']);
    expect(ran.code).toBe(0);
    const { runId } = JSON.parse(ran.stdout) as { runId: string };
    const whole = await eventsJson(runId);
    const r = await runWeft(['events', runId, '--db', db, '--json', '--after', '2', '--limit', '9']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ events: whole.slice(2, 11), next: whole[10]?.seq });
    const text = await runWeft(['events', runId, '--db', db, '--after', '0', '--limit', '10']);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe(`more events: weft events ${runId} --after 10 --limit 10\n`);
    const refused = await runWeft(['events', runId, '--db', db, '--limit', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--limit must be a whole number of at least 1, not "0"/);
    expect(refused.stderr).not.toContain(STACK_LINE);
  });
});

describe('weft events --follow', () => {
  it('follows a running workflow to its end: each event once, exit 0', async () => {
    expect((await startWeft(['trust', dir]).done).code).toBe(0);
    const run = startWeft(['run', slowFile, '--db', db, '--json']);
    const runId = await runIdOf('slow');
    const follow = startWeft(['events', runId, '--db', db, '--follow', '--json']);
    const [ran, followed] = await Promise.all([run.done, follow.done]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(followed.code, followed.stderr).toBe(0);
    const printed = follow.lines.map((l) => JSON.parse(l) as Printed);
    expect(printed).toEqual(await eventsJson(runId));
  });

  it('waits while the run waits for a person, prints what other processes commit, and exits with the run code', async () => {
    for (const [act, code] of [[['approve'], 0], [['reject', '--reason', 'not yet'], 1], [['cancel'], 1]] as const) {
      const ran = await runWeft(['run', reviewFile, '--db', db, '--json']);
      expect(ran.code).toBe(3);
      const { runId } = JSON.parse(ran.stdout) as { runId: string };
      const follow = startWeft(['events', runId, '--db', db, '--follow']);
      await until(() => follow.lines.some((l) => l.includes('task_opened')), 'the follower to print the open task');
      const before = follow.lines.length;
      const acted = await runWeft(act[0] === 'cancel' ? ['cancel', runId, '--db', db] : [act[0], runId, 'review', ...act.slice(1), '--db', db]);
      expect(acted.code, acted.stderr).toBe(code);
      const followed = await follow.done;
      expect(followed.code, act[0]).toBe(code);
      expect(follow.lines.length).toBeGreaterThan(before);
      expect(followed.stdout).toBe((await runWeft(['events', runId, '--db', db])).stdout);
    }
  }, 180_000);
});

describe('weft events --follow opens the store read-only', () => {
  it('refuses a store that is not there, creating nothing, and another application’s database, unchanged', async () => {
    const missing = join(dir, 'nothing-here', 'store.db');
    const none = await runWeft(['events', 'r1', '--db', missing, '--follow']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/there is no store at .*nothing-here\/store\.db; nothing was created/);
    expect(existsSync(join(dir, 'nothing-here'))).toBe(false);
    const other = join(dir, 'contacts.db');
    const contacts = new Database(other);
    contacts.exec("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES ('Ada')");
    contacts.close();
    const before = readFileSync(other);
    const refused = await runWeft(['events', 'r1', '--db', other, '--follow']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is an SQLite database of another application.*not a Weft store; nothing was changed/);
    expect(refused.stderr).not.toContain(STACK_LINE);
    expect(readFileSync(other).equals(before)).toBe(true);
  });
});
