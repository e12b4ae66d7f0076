// Real `weft` commands started together on a store path where no store exists yet (issue 19,
// item 4), end to end: every `weft run` runs its workflow (one makes the store, the others use
// it, each in turn under the lease), and a `weft runs` started with them lists runs or says there
// is no store yet. The tight race is test/engine/store-concurrent-create.test.ts; this shows the
// commands themselves.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runWeft } from './run-weft.ts';

const ROUNDS = 4;
const RUNS = 3;

it(`${RUNS} weft run and a weft runs started together on a new store, ${ROUNDS} times: none fails`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-concurrent-create-cli-'));
  writeFileSync(join(dir, 'quick.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'quick', version: 1, name: 'Quick',
    steps: [{ id: 'one', kind: 'transform', config: { expression: '1' } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'e', from: 'one', to: 'done' }],
  }));
  const failures: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const db = join(dir, `round-${round}`, 'weft.db');
    const commands = [...Array.from({ length: RUNS }, () => ['run', 'quick.weft.json', '--db', db]), ['runs', '--db', db]];
    const results = await Promise.all(commands.map((args) => runWeft(args, dir, { timeoutMs: 60_000 })));
    results.forEach((r, k) => {
      const command = commands[k]?.[0];
      const fine = r.code === 0 || (command === 'runs' && r.code === 2 && r.stderr.includes('there is no store at'));
      if (!fine) failures.push(`round ${round}, weft ${command}: exit ${r.code}: ${r.stderr.trim()}`);
    });
    const listed = await runWeft(['runs', '--db', db, '--json'], dir);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toHaveLength(RUNS);
  }
  expect(failures).toEqual([]);
}, 300_000);
