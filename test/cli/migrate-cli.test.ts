// weft migrate through the real binary (a child process) on a real store: --dry-run prints the
// plan lines and changes nothing (exit 0 when every plan is safe); a finished run among the runs
// is refused (exit 1) while the waiting one moves; the moved run, decided, finishes on v3 with the
// new step run; a bad --map is an error (exit 2); --json prints the MigrationReport shape.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { MigrationReport } from '../../shared/api/migration.ts';
import { runWeft, REPO_ROOT } from './run-weft.ts';

type Json = Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'weft-cli-migrate-'));
const db = join(dir, 'store.db');
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') });
afterAll(() => restoreEnv());
const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/research-review.weft.json'), 'utf8')) as Json & { steps: Json[]; edges: Json[] };
const v2 = join(dir, 'research-review.weft.json');
const v3 = join(dir, 'research-review-v3.weft.json');
writeFileSync(v2, JSON.stringify(example));
writeFileSync(v3, JSON.stringify({
  ...example,
  version: 3,
  steps: [...example.steps, { id: 'notify', kind: 'transform', config: { expression: '{ "title": steps.draft.output.title }' } }],
  edges: [...example.edges.filter((e) => e.id !== 'review_approved'), { id: 'review_to_notify', from: 'review', to: 'notify', on: 'succeeded' }, { id: 'notify_approved', from: 'notify', to: 'approved' }],
}));

const start = async (): Promise<string> => {
  const r = await runWeft(['run', v2, '--db', db, '--input', '{"topic": "durable workflows"}', '--json']);
  expect(r.code).toBe(3);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
};
const inspect = async (run: string): Promise<{ run: { version: number; state: string }; steps: { id: string; state: string }[] }> => {
  const r = await runWeft(['inspect', run, '--db', db, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { run: { version: number; state: string }; steps: { id: string; state: string }[] };
};

let waiting = '';
let done = '';
beforeAll(async () => {
  waiting = await start();
  done = await start();
  expect((await runWeft(['approve', done, 'review', '--db', db, '--by', 'ed'])).code).toBe(0);
});

describe('weft migrate', () => {
  it('--dry-run prints one plan line per running run and changes nothing', async () => {
    const r = await runWeft(['migrate', '--all', 'research-review@2', '--to', v3, '--db', db, '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${waiting}  research-review v2 → v3  safe\n  new steps: notify\n`);
    expect(r.stdout).not.toContain(done);
    expect(r.stdout).toMatch(/dry run: 1 of 1 runs can move; nothing was changed/);
    expect((await inspect(waiting)).run.version).toBe(2);
  });

  it('refuses a bad --map with exit 2 and changes nothing', async () => {
    const r = await runWeft(['migrate', waiting, '--to', v3, '--map', 'nope=notify', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--map nope=notify: "nope" is not a step of research-review v2/);
    expect((await inspect(waiting)).run.version).toBe(2);
  });

  it('migrates the waiting run, refuses the finished one (exit 1), and the migrated run finishes on v3', async () => {
    const r = await runWeft(['migrate', waiting, done, '--to', v3, '--db', db, '--json', '--reason', 'notify on approval']);
    expect(r.code).toBe(1);
    const report = MigrationReport.parse(JSON.parse(r.stdout));
    expect(report.runs.map((x) => [x.plan.runId, x.plan.verdict, x.applied])).toEqual([[waiting, 'safe', true], [done, 'refused', false]]);
    expect(report.runs[1]?.plan.refusals[0]?.code).toBe('finished');
    expect((await inspect(waiting)).run.version).toBe(3);
    expect((await inspect(done)).run.version).toBe(2);

    const events = await runWeft(['events', waiting, '--db', db, '--json']);
    const migrated = (JSON.parse(events.stdout) as { events: { type: string; reason: string }[] }).events.filter((e) => e.type === 'run_migrated');
    expect(migrated).toHaveLength(1);
    expect(migrated[0]?.reason).toMatch(/^migrated from version 2 to 3 by .+: notify on approval$/);

    expect((await runWeft(['approve', waiting, 'review', '--db', db, '--by', 'ed'])).code).toBe(0);
    const after = await inspect(waiting);
    expect(after.run).toMatchObject({ version: 3, state: 'succeeded' });
    expect(after.steps.find((s) => s.id === 'notify')?.state).toBe('succeeded');
  });
});
