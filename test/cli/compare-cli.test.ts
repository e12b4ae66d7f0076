// `weft compare` through the real binary on a store `weft run` wrote: runs that took different
// branches, had another input, or where a step failed in one only (a command reading a file the
// test changes between runs) exit 1 with that difference in --json (parsed by the shared schema)
// and in the text; a run compared with its twin exits 0; and everything that cannot be compared
// exits 2 with one line saying which argument is wrong.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-compare-'));
const db = join(dir, 'weft.db');
// The command step needs a trusted workspace; trust is kept in this test's own config folder.
const env = { WEFT_CONFIG_DIR: join(dir, 'config') };
const valueFile = join(dir, 'value.json');

const write = (name: string, workflow: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(workflow));
  return file;
};
const branches = write('branches.weft.json', {
  format: 'weft/v1', id: 'branches', version: 1, name: 'Branches',
  steps: [
    { id: 'pick', kind: 'router', input: 'input' },
    { id: 'big', kind: 'transform', config: { expression: '{"size": "big"}' } },
    { id: 'small', kind: 'transform', config: { expression: '{"size": "small"}' } },
    { id: 'done_big', kind: 'end' },
    { id: 'done_small', kind: 'end' },
  ],
  edges: [
    { id: 'to_big', from: 'pick', to: 'big', when: 'output.n > 10' },
    { id: 'to_small', from: 'pick', to: 'small', default: true },
    { id: 'big_done', from: 'big', to: 'done_big' },
    { id: 'small_done', from: 'small', to: 'done_small' },
  ],
});
const chain = write('chain.weft.json', {
  format: 'weft/v1', id: 'chain', version: 1, name: 'Chain',
  steps: [
    { id: 'prep', kind: 'transform', config: { expression: '{"n": input.n, "tags": input.tags}' } },
    { id: 'read_file', kind: 'command', input: '{}', config: { argv: ['cat', valueFile] } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'prep', to: 'read_file' }, { id: 'b', from: 'read_file', to: 'done' }],
});

const constant = write('constant.weft.json', {
  format: 'weft/v1', id: 'constant', version: 1, name: 'Constant',
  steps: [
    { id: 'calc', kind: 'transform', input: 'input', config: { expression: '{"ok": true}' } },
    // An end step without an input would get the run input: it reads calc's output instead.
    { id: 'done', kind: 'end', input: 'steps.calc.output' },
  ],
  edges: [{ id: 'calc_done', from: 'calc', to: 'done' }],
});

/** Runs `file` with `input` to its end; the run's id. */
async function run(file: string, input: unknown): Promise<string> {
  const r = await runWeft(['run', file, '--db', db, '--input', JSON.stringify(input), '--json'], dir, { env });
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}

const compare = (...args: string[]) => runWeft(['compare', ...args, '--db', db], dir, { env });

const runs: Record<string, string> = {};

beforeAll(async () => {
  expect((await runWeft(['trust', dir], dir, { env })).code).toBe(0);
  runs['big'] = await run(branches, { n: 20 });
  runs['small'] = await run(branches, { n: 2 });
  runs['bigAgain'] = await run(branches, { n: 20 });
  writeFileSync(valueFile, '{"v": 1}');
  runs['tagsXY'] = await run(chain, { n: 1, tags: ['x', 'y'] });
  runs['tagsXZ'] = await run(chain, { n: 1, tags: ['x', 'z'] });
  runs['readOk'] = await run(chain, { n: 3 });
  writeFileSync(valueFile, 'not json');
  runs['readFails'] = await run(chain, { n: 3 });
  runs['constant1'] = await run(constant, { n: 1 });
  runs['constant2'] = await run(constant, { n: 2 });
});

const id = (name: string): string => {
  const value = runs[name];
  if (value === undefined) throw new Error(`no run ${name}`);
  return value;
};

describe.concurrent('weft compare --json', () => {
  it('names the router when the runs took different branches (exit 1)', async () => {
    const r = await compare(id('big'), id('small'), '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.runs.map((x) => x.id)).toEqual([id('big'), id('small')]);
    expect(c.firstDifference).toEqual({ stepId: 'pick', kind: 'path', why: 'A took pick→big, B took pick→small' });
    expect(c.route).toEqual({ a: ['pick', 'big', 'done_big'], b: ['pick', 'small', 'done_small'] });
    expect(c.steps.map((s) => [s.id, s.a?.activations, s.b?.activations])).toEqual([['pick', 1, 1], ['big', 1, 0], ['small', 0, 1], ['done_big', 1, 0], ['done_small', 0, 1]]);
    expect(c.same).toBe(false);
  });

  it('names the first step given another input, with the JSON paths of its fields (exit 1)', async () => {
    const r = await compare(id('tagsXY'), id('tagsXZ'), '--json');
    expect(r.code).toBe(1);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.firstDifference).toMatchObject({ stepId: 'prep', kind: 'input', paths: ['$.tags[1]'], fields: [{ path: '$.tags[1]', a: 'y', b: 'z' }] });
    expect(c.inputDiff).toEqual([{ path: '$.tags[1]', a: 'y', b: 'z' }]);
  });

  it('names a step that failed in one run only as an outcome difference (exit 1)', async () => {
    const r = await compare(id('readOk'), id('readFails'), '--json');
    expect(r.code).toBe(1);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.runs.map((x) => x.state)).toEqual(['succeeded', 'failed']);
    expect(c.firstDifference).toEqual({ stepId: 'read_file', kind: 'outcome', why: '"read_file" succeeded in A, failed in B' });
  });

  it('exits 0 for runs given other inputs that took the same path to the same outputs, and still names the input', async () => {
    const r = await compare(id('constant1'), id('constant2'), '--json');
    expect(r.code).toBe(0);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.firstDifference).toMatchObject({ stepId: 'calc', kind: 'input', paths: ['$.n'] });
    expect(c.same).toBe(false);
    expect(c.steps.flatMap((s) => s.differs)).toEqual(['input']);
  });

  it('exits 0 for two runs that went the same way, and for a run and itself, by id prefix too', async () => {
    const r = await compare(id('big'), id('bigAgain'), '--json');
    expect(r.code).toBe(0);
    expect(RunComparison.parse(JSON.parse(r.stdout))).toMatchObject({ firstDifference: null, same: true });
    const self = await compare(id('small').slice(0, -1), id('small'), '--json');
    expect(self.code).toBe(0);
    expect(RunComparison.parse(JSON.parse(self.stdout)).runs.map((x) => x.id)).toEqual([id('small'), id('small')]);
  });
});

describe.concurrent('weft compare as text', () => {
  it('shows both paths, the first difference and a timing table', async () => {
    const r = await compare(id('big'), id('small'));
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `A ${id('big')}: branches v1, succeeded`,
      `B ${id('small')}: branches v1, succeeded`,
      'Path A: pick → big → done_big',
      'Path B: pick → small → done_small',
      'First difference at step pick (path): A took pick→big, B took pick→small',
    ]);
    expect(lines[5]).toBe('Steps:');
    expect(lines[6]).toMatch(/^ {2}step +A +A time +B +B time +differs$/);
    expect(lines[7]).toMatch(/^ {2}pick +succeeded +\d+ ms +succeeded +\d+ ms +path, input, output$/);
    expect(lines[8]).toMatch(/^ {2}big +succeeded +\d+ ms +\(skipped\) +path$/);
  });

  it('lists the fields that differ under the first difference', async () => {
    const r = await compare(id('tagsXY'), id('tagsXZ'));
    expect(r.stdout).toContain('First difference at step prep (input): the input of "prep" differs in 1 field\n  field      A    B\n  $.tags[1]  "y"  "z"\n');
  });

  it("shows each side's error where the outcomes part", async () => {
    const r = await compare(id('readOk'), id('readFails'));
    expect(r.stdout).toMatch(/\nFirst difference at step read_file \(outcome\): "read_file" succeeded in A, failed in B\n {2}B: [a-z_]+: .*not json.*\n/);
  });

  it('says there is no difference for twin runs', async () => {
    const r = await compare(id('big'), id('bigAgain'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No difference: the same path, inputs, outcomes and outputs.\n');
  });
});

describe.concurrent('weft compare refuses what it cannot compare (exit 2, one line)', () => {
  it.each([
    ['no run', [], /^weft compare: give exactly two runs to compare \(got 0\)/],
    ['one run', ['r1'], /^weft compare: give exactly two runs to compare \(got 1\)/],
    ['three runs', ['r1', 'r2', 'r3'], /^weft compare: give exactly two runs to compare \(got 3\)/],
  ])('%s', async (_what, args, message) => {
    const r = await compare(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(STACK_LINE);
  });

  it('an unknown run, naming its side', async () => {
    const before = readFileSync(db);
    const r = await compare(id('big'), 'nosuchrun');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'weft compare: run B: no run "nosuchrun" in this store; list runs with `weft runs`\n' });
    const a = await compare('nosuchrun', id('big'));
    expect(a.stderr).toMatch(/^weft compare: run A: no run "nosuchrun"/);
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it('a prefix that matches several runs', async () => {
    const r = await compare('r', id('big'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^weft compare: run A: "r" matches several runs \(.+\); give more of the id\n$/);
  });

  it('no store', async () => {
    const missing = join(dir, 'none', 'weft.db');
    const r = await runWeft(['compare', 'r1', 'r2', '--db', missing], dir, { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(r.stderr).toMatch(/^weft compare: /);
    expect(existsSync(missing)).toBe(false);
  });
});
