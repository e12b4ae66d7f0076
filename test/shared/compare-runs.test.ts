// compareRuns on runs the real engine ran on a real store (test/engine/harness.ts): a router that
// takes another branch, the same path with another input, a step whose outcome or output differs
// with the same input (a command reading a file the test changes), a run compared with itself and
// with a run of another version. jsonDiff and stepOrder are checked on tables of plain data.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CompareQuery, RunComparison } from '../../shared/api/run-comparison.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import { compareRuns } from '../../shared/run/compare-runs.ts';
import { sideLabel } from '../../shared/run/compared-step-side.ts';
import { jsonDiff } from '../../shared/run/json-diff.ts';
import { runDetail } from '../../shared/run/run-detail.ts';
import { stepOrder } from '../../shared/run/step-order.ts';
import { end, harness, until, wf } from '../engine/harness.ts';

const h = harness();
afterAll(() => h.close());

/** Runs `workflow` with `input` to its end; its RunDetail with its definition, as the server sends it. */
async function ran(workflow: unknown, input: unknown): Promise<RunDetail> {
  const { runId } = h.start(workflow, input);
  await h.engine.settled(runId);
  const model = h.model(runId);
  return { ...runDetail(model), definition: model.workflow };
}

/** pick routes big inputs (n > 10) to big, the rest to small; both then end. */
const branches = wf('branches', [
  { id: 'pick', kind: 'router', input: 'input' },
  { id: 'big', kind: 'transform', config: { expression: '{"size": "big"}' } },
  { id: 'small', kind: 'transform', config: { expression: '{"size": "small"}' } },
  end('done_big'),
  end('done_small'),
], [
  { id: 'to_big', from: 'pick', to: 'big', when: 'output.n > 10' },
  { id: 'to_small', from: 'pick', to: 'small', default: true },
  { id: 'big_done', from: 'big', to: 'done_big' },
  { id: 'small_done', from: 'small', to: 'done_small' },
]);

/** prep reads n and tags from the run input, read_file prints a file the test writes, double reads n from prep. */
const chain = (file: string, version = 1, extra: unknown[] = []) => wf('chain', [
  { id: 'prep', kind: 'transform', input: '{"n": input.n, "tags": input.tags}', config: { expression: '{"n": input.n, "tags": input.tags}' } },
  { id: 'read_file', kind: 'command', input: '{}', config: { argv: ['cat', file] } },
  { id: 'double', kind: 'transform', input: '{"n": steps.prep.output.n}', config: { expression: '{"double": input.n * 2}' } },
  ...extra,
  end(),
], [
  { id: 'a', from: 'prep', to: 'read_file' },
  { id: 'b', from: 'read_file', to: 'double' },
  ...(extra.length === 0 ? [{ id: 'c', from: 'double', to: 'done' }] : [{ id: 'c', from: 'double', to: 'notify' }, { id: 'd', from: 'notify', to: 'done' }]),
], { version });

const file = join(h.dir, 'value.json');
const check = (c: RunComparison): RunComparison => RunComparison.parse(JSON.parse(JSON.stringify(c)));

describe('compareRuns on runs of the real engine', () => {
  it('names the router as the first difference when the runs took different branches', async () => {
    const a = await ran(branches, { n: 20 });
    const b = await ran(branches, { n: 2 });
    const c = check(compareRuns(a, b));
    expect(c.firstDifference).toEqual({ stepId: 'pick', kind: 'path', why: 'A took pick→big, B took pick→small' });
    expect(c.route).toEqual({ a: ['pick', 'big', 'done_big'], b: ['pick', 'small', 'done_small'] });
    expect(c.steps.map((s) => [s.id, s.differs])).toEqual([
      ['pick', ['path', 'input', 'output']],
      ['big', ['path']],
      ['small', ['path']],
      ['done_big', ['path']],
      ['done_small', ['path']],
    ]);
    expect(c.steps[1]?.a).toMatchObject({ state: 'succeeded', activations: 1, output: { size: 'big' } });
    expect(c.steps[1]?.b).toMatchObject({ state: 'skipped', activations: 0, attempts: 0, startedAtMs: null });
    expect(c.inputDiff).toEqual([{ path: '$.n', a: 20, b: 2 }]);
    expect(c.same).toBe(false);
    expect(c.versionDiff).toBeNull();
    expect(c.runs.map((r) => r.id)).toEqual([a.run.id, b.run.id]);
  });

  it('names the first step given another input, with the fields that differ', async () => {
    writeFileSync(file, '{"v": 1}');
    const a = await ran(chain(file), { n: 1, tags: ['x', 'y'], note: 'same' });
    const b = await ran(chain(file), { n: 1, tags: ['x', 'z', 'w'], note: 'same' });
    const c = check(compareRuns(a, b));
    expect(c.firstDifference).toEqual({
      stepId: 'prep',
      kind: 'input',
      paths: ['$.tags[1]', '$.tags[2]'],
      fields: [{ path: '$.tags[1]', a: 'y', b: 'z' }, { path: '$.tags[2]', b: 'w' }],
      total: 2,
      why: 'the input of "prep" differs in 2 fields',
    });
    expect(c.route.a).toEqual(c.route.b);
    // double reads only n from prep: the same input and output in both.
    expect(c.steps.find((s) => s.id === 'double')?.differs).toEqual([]);
    expect(c.steps.find((s) => s.id === 'prep')?.differs).toEqual(['input', 'output']);
  });

  it('names a step that failed in one run only as an outcome difference', async () => {
    writeFileSync(file, '{"v": 1}');
    const a = await ran(chain(file), { n: 3 });
    writeFileSync(file, 'not json');
    const b = await ran(chain(file), { n: 3 });
    expect(b.run.state).toBe('failed');
    const c = check(compareRuns(a, b));
    expect(c.firstDifference).toEqual({ stepId: 'read_file', kind: 'outcome', why: '"read_file" succeeded in A, failed in B' });
    expect(c.steps.find((s) => s.id === 'read_file')?.b).toMatchObject({ state: 'failed', outcome: 'failed', input: {}, error: { code: expect.any(String) } });
    expect(c.steps.find((s) => s.id === 'read_file')?.a?.error).toBeNull();
    // A went on past read_file, B did not: double ran in A only.
    expect(c.steps.find((s) => s.id === 'double')?.differs).toEqual(['path']);
  });

  it('names a step that gave another output for the same input, with the fields', async () => {
    writeFileSync(file, '{"v": 1, "same": true}');
    const a = await ran(chain(file), { n: 3 });
    writeFileSync(file, '{"same": true, "v": 2, "w": null}');
    const b = await ran(chain(file), { n: 3 });
    const c = check(compareRuns(a, b));
    expect(c.firstDifference).toMatchObject({ stepId: 'read_file', kind: 'output', paths: ['$.v', '$.w'], fields: [{ path: '$.v', a: 1, b: 2 }, { path: '$.w', b: null }] });
    expect(c.same).toBe(false);
  });

  it('finds no difference between a run and itself, nor between two runs alike but for their timing', async () => {
    writeFileSync(file, '{"v": 1}');
    const a = await ran(chain(file), { n: 4 });
    const itself = check(compareRuns(a, a));
    expect(itself).toMatchObject({ firstDifference: null, same: true, inputDiff: [], versionDiff: null });
    expect(itself.steps.every((s) => s.differs.length === 0)).toBe(true);
    const b = await ran(chain(file), { n: 4 });
    expect(b.run.id).not.toBe(a.run.id);
    expect(check(compareRuns(a, b))).toMatchObject({ firstDifference: null, same: true });
  });

  it('adds the version diff for runs of different versions, and orders steps by both graphs', async () => {
    writeFileSync(file, '{"v": 1}');
    const a = await ran(chain(file, 1), { n: 5 });
    const notify = { id: 'notify', kind: 'transform', config: { expression: '"sent"' } };
    const b = await ran(chain(file, 2, [notify]), { n: 5 });
    const c = check(compareRuns(a, b));
    expect(c.runs.map((r) => r.version)).toEqual([1, 2]);
    expect(c.versionDiff).toMatchObject({ steps: { added: ['notify'], removed: [] }, versions: { a: 1, b: 2 } });
    expect(c.steps.map((s) => s.id)).toEqual(['prep', 'read_file', 'double', 'notify', 'done']);
    expect(c.steps.find((s) => s.id === 'notify')?.a).toBeNull();
    expect(c.firstDifference).toEqual({ stepId: 'double', kind: 'path', why: 'A took double→done, B took double→notify' });
    // Without definitions the steps come from the RunDetails, and there is no version diff.
    const { definition: _a, ...bareA } = a;
    const { definition: _b, ...bareB } = b;
    expect(compareRuns(bareA, bareB)).toMatchObject({ versionDiff: null, firstDifference: { stepId: 'double', kind: 'path' } });
  });
});

/**
 * tick counts the passes; pick sends the run back through x while the count is under
 * input.rounds, then on to y. With rounds 2, x runs in the first pass and the second pass goes
 * past it (its state reads skipped although its attempt succeeded).
 */
const loop = wf('loop', [
  { id: 'tick', kind: 'transform', config: { expression: '{"n": $exists(steps.tick.output) ? steps.tick.output.n + 1 : 1}' } },
  { id: 'pick', kind: 'router', input: 'steps.tick.output' },
  { id: 'x', kind: 'transform', config: { expression: '"again"' } },
  { id: 'y', kind: 'transform', config: { expression: '"out"' } },
  end(),
], [
  { id: 'tick_pick', from: 'tick', to: 'pick' },
  { id: 'to_x', from: 'pick', to: 'x', when: 'output.n < input.rounds' },
  { id: 'to_y', from: 'pick', to: 'y', default: true },
  { id: 'x_tick', from: 'x', to: 'tick', maxTraversals: 3 },
  { id: 'y_done', from: 'y', to: 'done' },
]);

/** The time a step's attempts took, activation by activation (first start to last end of each), added up. */
function activationTime(d: RunDetail, stepId: string): number {
  const attempts = d.steps.find((s) => s.id === stepId)?.attempts ?? [];
  const spans = new Map<number, { start: number; end: number }>();
  for (const a of attempts) {
    const span = spans.get(a.activation);
    const end = a.endedAtMs ?? Number.NaN;
    spans.set(a.activation, span === undefined ? { start: a.startedAtMs, end } : { start: Math.min(span.start, a.startedAtMs), end: Math.max(span.end, end) });
  }
  return [...spans.values()].reduce((sum, s) => sum + s.end - s.start, 0);
}

/** One agent step choosing between two mock candidates by the input's topic (docs/routing.md). */
const routed = wf('routed', [
  {
    id: 'answer',
    kind: 'agent',
    input: '{"q": input.q}',
    config: {
      prompt: 'Answer {{ input.q }}',
      candidates: [
        { id: 'general', provider: 'mock', model: 'general', tags: ['billing'], mock: { replies: [{ output: { answer: 'yes' } }] } },
        { id: 'lawyer', provider: 'mock', model: 'lawyer', tags: ['legal'], mock: { replies: [{ output: { answer: 'yes' } }] } },
      ],
      choose: { matchTags: 'input.topic' },
    },
  },
  end(),
], [{ id: 'a', from: 'answer', to: 'done' }]);

describe('compareRuns on an agent step that chose another candidate', () => {
  it('names the step as a candidate difference, with each side\'s candidate, though input and output are alike', async () => {
    const a = await ran(routed, { q: 'may I cancel?', topic: 'legal' });
    const b = await ran(routed, { q: 'may I cancel?', topic: 'billing' });
    const c = check(compareRuns(a, b));
    expect(c.firstDifference).toEqual({ stepId: 'answer', kind: 'candidate', why: '"answer" ran on lawyer in A, on general in B' });
    const step = c.steps.find((s) => s.id === 'answer');
    expect(step?.differs).toEqual(['candidate']);
    expect([step?.a?.candidate, step?.b?.candidate]).toEqual(['lawyer', 'general']);
    expect(check(compareRuns(a, a)).same).toBe(true);
  });
});

describe('compareRuns on a loop: a step that ran in an earlier pass only', () => {
  it('counts it as run, with the time of its attempts, and gives no time to a step that did not run', async () => {
    const a = await ran(loop, { rounds: 2 });
    const b = await ran(loop, { rounds: 1 });
    // The last pass of A went past x, which had succeeded: the fold keeps it succeeded and passed over.
    expect(a.steps.find((s) => s.id === 'x')?.attempts.map((t) => t.state)).toEqual(['succeeded']);
    const c = check(compareRuns(a, b));
    const x = c.steps.find((s) => s.id === 'x');
    expect(x?.a).toMatchObject({ ran: true, reached: true, attempts: 1, lastAttempt: 'succeeded', attempt: 'x/1.1', durationMs: activationTime(a, 'x') });
    expect(x?.b).toMatchObject({ ran: false, reached: false, attempts: 0, lastAttempt: null, attempt: null, durationMs: null });
    expect(x?.differs).toEqual(['path']);
    expect(x?.a).toMatchObject({ state: 'succeeded', passedOver: true });
    expect(sideLabel(x?.a ?? null)).toBe('succeeded then passed over');
    expect(sideLabel(x?.b ?? null)).toBe('skipped');
    // tick ran in two activations in A: its time is theirs, not the span from the first to the last.
    expect(c.steps.find((s) => s.id === 'tick')?.a?.durationMs).toBe(activationTime(a, 'tick'));
    expect(c.firstDifference).toEqual({ stepId: 'tick', kind: 'path', why: '"tick" was activated 2 times in A, once in B' });
    expect(c.route).toEqual({ a: ['tick', 'pick', 'x', 'y', 'done'], b: ['tick', 'pick', 'y', 'done'] });
    // Every side has a time exactly when the step ran in that run.
    for (const s of c.steps) for (const side of [s.a, s.b]) expect([s.id, side?.durationMs !== null]).toEqual([s.id, side?.ran === true]);
  });
});

describe('compareRuns on a step an operator settled', () => {
  it('puts it on the path where the run reached it, with no time: it did not run', async () => {
    const flow = wf('by-hand', [
      { id: 'check', kind: 'transform', config: { expression: '$error("the check broke")' } },
      { id: 'work', kind: 'transform', config: { expression: '"worked"' } },
      end(),
    ], [{ id: 'a', from: 'check', to: 'work' }, { id: 'b', from: 'work', to: 'done' }]);
    const { runId } = h.start(flow, {});
    expect(await h.engine.settled(runId)).toBe('failed');
    // work never started: an operator settles it with a given output, and the run goes on to done.
    await h.engine.skipStep(runId, 'work', 'done by hand', 'ops', 'the check is known to be broken');
    await until(() => h.model(runId).steps.get('done')?.state === 'succeeded', 'done to succeed after the skip');
    const model = h.model(runId);
    const d = { ...runDetail(model), definition: model.workflow };
    const c = check(compareRuns(d, d));
    expect(c.route.a).toEqual(['check', 'work', 'done']);
    const work = c.steps.find((s) => s.id === 'work')?.a ?? null;
    expect(work).toMatchObject({ ran: false, reached: true, attempts: 0, state: 'succeeded', durationMs: null, attempt: null });
    expect(sideLabel(work)).toBe('succeeded');
    expect(c.steps.find((s) => s.id === 'check')?.a).toMatchObject({ ran: true, reached: true, lastAttempt: 'failed' });
  });
});

describe('compareRuns with a cut (what GET /api/compare sends)', () => {
  const echo = wf('echo', [{ id: 'echo', kind: 'transform', config: { expression: 'input' } }, end()], [{ id: 'a', from: 'echo', to: 'done' }]);
  const values = (side: string) => ({ list: Array.from({ length: 120 }, (_, i) => `${side}${i}`), big: side.repeat(10_000) });

  it('lists the first fields of each list with their total, and stubs the values over the limit by their path in their run', async () => {
    const a = await ran(echo, values('a'));
    const b = await ran(echo, values('b'));
    const whole = check(compareRuns(a, b));
    const c = check(compareRuns(a, b, undefined, { cut: { valueLimit: 4096, fieldLimit: 50 } }));
    // The cut changes what is sent, never what differs.
    expect(c.steps.map((s) => s.differs)).toEqual(whole.steps.map((s) => s.differs));
    const step = c.steps.find((s) => s.id === 'echo');
    expect(step?.fields.input.map((f) => f.path)).toEqual(whole.steps[0]?.fields.input.slice(0, 50).map((f) => f.path));
    expect(step?.fields).toMatchObject({ inputTotal: 121, outputTotal: 121 });
    expect(step?.fields.input[0]).toEqual({ path: '$.big', a: expect.objectContaining({ $weft: 'elided', path: 'steps.echo.attempts[0].input.big', kind: 'string', bytes: 10_002 }), b: expect.objectContaining({ path: 'steps.echo.attempts[0].input.big' }) });
    expect(step?.fields.input[1]).toEqual({ path: '$.list[0]', a: 'a0', b: 'b0' });
    expect(step?.a?.output).toMatchObject({ $weft: 'elided', path: 'steps.echo.attempts[0].output' });
    expect(c.firstDifference).toMatchObject({ stepId: 'echo', kind: 'input', total: 121, why: 'the input of "echo" differs in 121 fields' });
    expect(c.firstDifference?.paths).toHaveLength(50);
    expect(c.firstDifference?.fields).toEqual(step?.fields.input);
    expect(c.inputDiff).toHaveLength(50);
    expect(c.inputDiffTotal).toBe(121);
    expect(c.inputDiff[0]?.a).toMatchObject({ $weft: 'elided', path: 'run.input.big' });
    expect(JSON.stringify(c).length).toBeLessThan(JSON.stringify(whole).length / 4);
  });
});

describe('jsonDiff', () => {
  const cases: [string, unknown, unknown, unknown[]][] = [
    ['equal values in another key order', { a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, []],
    ['a changed leaf', { a: { b: 1 } }, { a: { b: 2 } }, [{ path: '$.a.b', a: 1, b: 2 }]],
    ['arrays by index, the longer one\'s extra items', [1, 2], [1, 3, 4], [{ path: '$[1]', a: 2, b: 3 }, { path: '$[2]', b: 4 }]],
    ['a key in one side only', { a: 1 }, {}, [{ path: '$.a', a: 1 }]],
    ['a changed type as one field', { a: [1] }, { a: { 0: 1 } }, [{ path: '$.a', a: [1], b: { 0: 1 } }]],
    ['null against a missing key', { a: null }, {}, [{ path: '$.a', a: null }]],
    ['keys that are not names', { 'a b': 1, '0': 2 }, { 'a b': 2, '0': 3 }, [{ path: '$["0"]', a: 2, b: 3 }, { path: '$["a b"]', a: 1, b: 2 }]],
    ['whole values', 'x', 1, [{ path: '$', a: 'x', b: 1 }]],
    ['an absent value', undefined, { a: 1 }, [{ path: '$', b: { a: 1 } }]],
  ];
  it.each(cases)('%s', (_what, a, b, expected) => {
    expect(jsonDiff(a as never, b as never)).toEqual(expected);
  });

  it('walks a value nested 10,000 deep without overflowing', () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 10_000; i++) [a, b] = [{ k: a }, { k: b }];
    expect(jsonDiff(a as never, b as never)).toEqual([{ path: `$${'.k'.repeat(10_000)}`, a: 1, b: 2 }]);
  });
});

describe('stepOrder', () => {
  it('puts each step after the steps with edges into it, ties in document order', () => {
    expect(stepOrder([{ steps: ['done', 'b', 'a', 'c'], edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'b', to: 'done' }, { from: 'c', to: 'done' }] }])).toEqual(['a', 'b', 'c', 'done']);
  });

  it('cuts a loop where the order reaches it, and merges two graphs', () => {
    const loop = { steps: ['start', 'work', 'review', 'done'], edges: [{ from: 'start', to: 'work' }, { from: 'work', to: 'review' }, { from: 'review', to: 'work' }, { from: 'review', to: 'done' }] };
    expect(stepOrder([loop])).toEqual(['start', 'work', 'review', 'done']);
    expect(stepOrder([{ ...loop, steps: ['review', 'done', 'work', 'start'] }])).toEqual(['start', 'work', 'review', 'done']);
    const other = { steps: ['start', 'extra', 'done'], edges: [{ from: 'start', to: 'extra' }, { from: 'extra', to: 'done' }] };
    expect(stepOrder([loop, other])).toEqual(['start', 'work', 'review', 'extra', 'done']);
  });
});

describe('the RunComparison and CompareQuery schemas', () => {
  const run = { id: 'r1', workflowId: 'w', version: 1, state: 'succeeded', inputRevision: 1, createdAtMs: 1, updatedAtMs: 2 };
  const valid = { runs: [run, { ...run, id: 'r2' }], firstDifference: { stepId: 's', kind: 'output', paths: ['$.a'], fields: [{ path: '$.a', b: 1 }], why: 'w' }, steps: [], route: { a: [], b: [] }, inputDiff: [], inputDiffTotal: 0, versionDiff: null, same: false };
  it('accepts a comparison, and one with fields it does not know (later additions)', () => {
    expect(RunComparison.safeParse(valid).success).toBe(true);
    expect(RunComparison.safeParse({ ...valid, later: 1 }).success).toBe(true);
  });
  const invalid: [string, unknown, string][] = [
    ['one run', { ...valid, runs: [run] }, 'runs'],
    ['an unknown kind', { ...valid, firstDifference: { ...valid.firstDifference, kind: 'timing' } }, 'firstDifference.kind'],
    ['a run state that is not one', { ...valid, runs: [run, { ...run, state: 'done' }] }, 'runs.1.state'],
    ['a field value JSON cannot carry', { ...valid, inputDiff: [{ path: '$', a: Number.NaN }] }, 'inputDiff.0.a'],
    ['a step side without its state', { ...valid, steps: [{ id: 's', a: {}, b: null, differs: [] }] }, 'steps.0.a.state'],
  ];
  it.each(invalid)('refuses %s at its path', (_what, value, path) => {
    const r = RunComparison.safeParse(value);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path.join('.')).toBe(path);
  });
  it.each([
    [{ a: 'r1', b: 'r2' }, true],
    [{ a: 'r1' }, false],
    [{ a: '', b: 'r2' }, false],
    [{ a: 'r1', b: 'r2', c: 'x' }, false],
    [{ a: 'r'.repeat(201), b: 'r2' }, false],
  ])('CompareQuery %j → %s', (query, ok) => {
    expect(CompareQuery.safeParse(query).success).toBe(ok);
  });
});
