// `weft events` pages through main() in-process: pages of --after/--limit join to the whole log
// (JSON and text, with the hint for the next page on stderr), and bad paging values are usage
// errors (exit 2). events-cli.test.ts runs one page and one refusal through the real binary, and
// --follow, whose subject is processes committing while it waits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { weftInProcess } from './capture-io.ts';
import { STACK_LINE } from './run-weft.ts';

interface Printed {
  seq: number;
  type: string;
}

const dir = mkdtempSync(join(tmpdir(), 'weft-events-paging-'));
const db = join(dir, 'store.db');
const chainFile = join(dir, 'chain.weft.json');
writeFileSync(chainFile, JSON.stringify({
  format: 'weft/v1', id: 'chain', version: 1, name: 'Chain',
  steps: [...[0, 1, 2, 3, 4].map((i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}}` } })), { id: 'done', kind: 'end' }],
  edges: [0, 1, 2, 3, 4].map((i) => ({ id: `e${i}`, from: `s${i}`, to: i === 4 ? 'done' : `s${i + 1}` })),
}));

const weft = (args: readonly string[]) => weftInProcess(args, dir);

async function chainRun(): Promise<string> {
  const ran = await weft(['run', chainFile, '--db', db, '--json']);
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { runId: string }).runId;
}

describe('weft events: pages', () => {
  it('--after and --limit pages join to the whole log, in JSON ({events, next}) and in text', async () => {
    const runId = await chainRun();
    const all = await weft(['events', runId, '--db', db, '--json']);
    expect(all.code).toBe(0);
    const whole = (JSON.parse(all.stdout) as { events: Printed[] }).events;
    expect(whole.length).toBeGreaterThan(15);
    const joined: Printed[] = [];
    let after = 0;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(whole.length);
      const r = await weft(['events', runId, '--db', db, '--json', '--after', String(after), '--limit', '9']);
      expect(r.code).toBe(0);
      const page = JSON.parse(r.stdout) as { events: Printed[]; next: number | null };
      expect(page.events.length).toBeLessThanOrEqual(9);
      joined.push(...page.events);
      if (page.next === null) break;
      expect(page.next).toBe(page.events[page.events.length - 1]?.seq);
      after = page.next;
    }
    expect(joined).toEqual(whole);

    const text = (await weft(['events', runId, '--db', db])).stdout;
    let pieces = '';
    for (let from = 0; from < whole.length; from += 10) {
      const r = await weft(['events', runId, '--db', db, '--after', String(from), '--limit', '10']);
      expect(r.code).toBe(0);
      if (from + 10 < whole.length) expect(r.stderr).toBe(`more events: weft events ${runId} --after ${from + 10} --limit 10\n`);
      else expect(r.stderr).toBe('');
      pieces += r.stdout;
    }
    expect(pieces).toBe(text);

    // --after alone keeps today's shape: no `next`.
    const tail = JSON.parse((await weft(['events', runId, '--db', db, '--json', '--after', '10'])).stdout) as Record<string, unknown>;
    expect(tail).toEqual({ events: whole.slice(10) });
  });

  it('refuses paging values that are not whole numbers, and --follow with --limit, with exit 2', async () => {
    const runId = await chainRun();
    const cases: [string[], RegExp][] = [
      [['--limit', '0'], /--limit must be a whole number of at least 1, not "0"/],
      [['--limit', 'ten'], /--limit must be a whole number of at least 1, not "ten"/],
      [['--after=-1'], /--after must be a whole number of at least 0, not "-1"/],
      [['--after', '2.5'], /--after must be a whole number of at least 0, not "2.5"/],
      [['--follow', '--limit', '3'], /--follow prints until the run ends; give --limit without --follow/],
    ];
    for (const [extra, message] of cases) {
      const r = await weft(['events', runId, '--db', db, ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(STACK_LINE);
    }
  });
});
