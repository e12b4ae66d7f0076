// The semantic diff of two workflow versions: each kind of change and each part is reported, key
// order is ignored, layout is counted apart, and the JSON parses with the shared schema.
import { describe, expect, it } from 'vitest';
import { WorkflowDiff, STEP_DIFF_PARTS, EDGE_DIFF_PARTS } from '../../shared/definition/workflow-diff-schema.ts';
import { diffSummaryLines, diffWorkflows, isSameWorkflow, sameValue } from '../../shared/definition/workflow-diff.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

type Raw = Record<string, unknown> & { steps: Record<string, unknown>[]; edges: Record<string, unknown>[] };

const base = (): Raw => ({
  format: 'weft/v1',
  id: 'order',
  version: 1,
  name: 'Order',
  steps: [
    { id: 'fetch', kind: 'http', config: { url: 'https://example.test/a', method: 'GET' }, retry: { maxAttempts: 3 } },
    { id: 'charge', kind: 'transform', config: { expression: 'input.amount' } },
    { id: 'refund', kind: 'transform', config: { expression: '0' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'fetch', to: 'charge' },
    { id: 'e2', from: 'charge', to: 'done' },
  ],
  layout: { fetch: { x: 0, y: 0 }, charge: { x: 100, y: 0 }, done: { x: 200, y: 0 } },
});

/** A workflow from raw JSON through the real schema, so a test cannot diff something weft would refuse. */
const wf = (raw: Raw): Workflow => Workflow.parse(raw);

const step = (raw: Raw, id: string): Record<string, unknown> => {
  const s = raw.steps.find((x) => x['id'] === id);
  if (s === undefined) throw new Error(`no step ${id}`);
  return s;
};
const edge = (raw: Raw, id: string): Record<string, unknown> => {
  const e = raw.edges.find((x) => x['id'] === id);
  if (e === undefined) throw new Error(`no edge ${id}`);
  return e;
};

/** Diffs base() against base() changed by `change`, and checks the result against the schema. */
const diffWith = (change: (b: Raw) => void): WorkflowDiff => {
  const b = base();
  change(b);
  const diff = diffWorkflows(wf(base()), wf(b));
  expect(WorkflowDiff.parse(JSON.parse(JSON.stringify(diff)))).toEqual(diff);
  return diff;
};

describe('diffWorkflows: steps', () => {
  it('finds nothing between a workflow and itself, and says so', () => {
    const diff = diffWorkflows(wf(base()), wf(base()));
    expect(diff).toMatchObject({ same: true, layoutOnly: false, steps: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [], changed: [], renamed: [] } });
    expect(isSameWorkflow(diff)).toBe(true);
    expect(diffSummaryLines(diff)).toEqual(['no differences']);
  });

  it('reports an added and a removed step with their kinds', () => {
    const diff = diffWith((b) => {
      b.steps = b.steps.filter((s) => s['id'] !== 'refund');
      b.steps.push({ id: 'notify', kind: 'http', config: { method: 'POST', url: 'https://example.test/n' } });
    });
    expect(diff.steps).toEqual({ added: ['notify'], removed: ['refund'], changed: [], kinds: { notify: 'http', refund: 'transform' } });
    expect(diff.same).toBe(false);
    expect(diffSummaryLines(diff)).toEqual(['+ step notify (http)', '- step refund (transform)']);
  });

  // One row per part: the change made to step "fetch" (or "charge") and the part it must show as.
  const partCases: [string, (b: Raw) => void, string][] = [
    ['kind', (b) => Object.assign(step(b, 'charge'), { kind: 'script', config: { module: 'charge.ts' } }), 'charge: kind transform ⇒ script, config'],
    ['config', (b) => Object.assign(step(b, 'fetch'), { config: { url: 'https://example.test/b', method: 'GET' } }), 'fetch: config'],
    ['input', (b) => Object.assign(step(b, 'charge'), { input: '{"a": input.a}' }), 'charge: input'],
    ['output', (b) => Object.assign(step(b, 'charge'), { output: { type: 'number' } }), 'charge: output'],
    ['accept', (b) => Object.assign(step(b, 'charge'), { accept: 'output > 0' }), 'charge: accept'],
    ['retry', (b) => Object.assign(step(b, 'fetch'), { retry: { maxAttempts: 5 } }), 'fetch: retry'],
    ['effect', (b) => Object.assign(step(b, 'fetch'), { effect: 'external' }), 'fetch: effect'],
    ['effect (idempotencyKey)', (b) => Object.assign(step(b, 'fetch'), { idempotencyKey: 'input.id' }), 'fetch: effect'],
    ['effect (onRevise)', (b) => Object.assign(step(b, 'fetch'), { onRevise: 'keep' }), 'fetch: effect'],
    ['timing (timeoutMs)', (b) => Object.assign(step(b, 'fetch'), { timeoutMs: 5000 }), 'fetch: timing'],
    ['timing (deadlineMs)', (b) => Object.assign(step(b, 'fetch'), { deadlineMs: 5000 }), 'fetch: timing'],
    ['timing (onExhausted)', (b) => Object.assign(step(b, 'fetch'), { onExhausted: 'escalate' }), 'fetch: timing'],
    ['compensation', (b) => Object.assign(step(b, 'charge'), { compensation: 'refund' }), 'charge: compensation'],
    ['resource', (b) => Object.assign(step(b, 'fetch'), { resource: 'api' }), 'fetch: resource'],
    ['optional', (b) => Object.assign(step(b, 'fetch'), { optional: true }), 'fetch: optional'],
    ['meta (name)', (b) => Object.assign(step(b, 'fetch'), { name: 'Fetch the order' }), 'fetch: meta'],
    ['meta (description)', (b) => Object.assign(step(b, 'fetch'), { description: 'why' }), 'fetch: meta'],
  ];
  it.each(partCases)('reports a change of %s as its part', (_name, change, line) => {
    const diff = diffWith(change);
    expect(diffSummaryLines(diff)).toEqual([`~ step ${line}`]);
    expect(diff.steps.added).toEqual([]);
    expect(diff.steps.removed).toEqual([]);
  });

  it('covers every step part but "edges" in the table above, which the edge tests cover', () => {
    const named = new Set(partCases.map(([name]) => name.split(' ')[0]));
    expect(STEP_DIFF_PARTS.filter((p) => !named.has(p))).toEqual(['edges']);
  });

  it('lists several parts of one step in the documented order, whatever order they changed in', () => {
    const diff = diffWith((b) => Object.assign(step(b, 'fetch'), { name: 'F', retry: { maxAttempts: 9 }, config: { method: 'POST', url: 'https://example.test/c' } }));
    expect(diff.steps.changed).toEqual([{ id: 'fetch', parts: ['config', 'retry', 'meta'] }]);
    expect(diffSummaryLines(diff)).toEqual(['~ step fetch: config, retry, meta']);
  });

  it('marks a removed field as a change, and a field written with its default too', () => {
    expect(diffWith((b) => delete step(b, 'fetch')['retry']).steps.changed).toEqual([{ id: 'fetch', parts: ['retry'] }]);
    expect(diffWith((b) => Object.assign(step(b, 'fetch'), { optional: false })).steps.changed).toEqual([{ id: 'fetch', parts: ['optional'] }]);
  });

  it('ignores key order in steps, configs and nested values, but not array order', () => {
    const b = base();
    b.steps[0] = { retry: { maxAttempts: 3 }, config: { method: 'GET', url: 'https://example.test/a' }, kind: 'http', id: 'fetch' };
    // Not through the schema, which would rebuild each object in its own key order.
    expect(diffWorkflows(base() as unknown as Workflow, b as unknown as Workflow).same).toBe(true);
    // A JSON Schema value keeps the order it was written in, through the schema too.
    const schemaA = base();
    Object.assign(step(schemaA, 'charge'), { output: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'string' } } } });
    const schemaB = base();
    Object.assign(step(schemaB, 'charge'), { output: { properties: { y: { type: 'string' }, x: { type: 'number' } }, type: 'object' } });
    expect(Object.keys(wf(schemaB).steps[1]?.output ?? {})).toEqual(['properties', 'type']);
    expect(diffWorkflows(wf(schemaA), wf(schemaB)).same).toBe(true);
    const c = base();
    Object.assign(step(c, 'fetch'), { retry: { maxAttempts: 3, nonRetryable: ['a', 'b'] } });
    const d = base();
    Object.assign(step(d, 'fetch'), { retry: { nonRetryable: ['b', 'a'], maxAttempts: 3 } });
    expect(diffWorkflows(wf(c), wf(d)).steps.changed).toEqual([{ id: 'fetch', parts: ['retry'] }]);
  });
});

describe('diffWorkflows: edges', () => {
  it('reports an added and a removed edge with where they run, and the steps at their ends', () => {
    const diff = diffWith((b) => {
      b.edges = b.edges.filter((e) => e['id'] !== 'e2');
      b.edges.push({ id: 'e3', from: 'charge', to: 'refund', on: 'failed' });
    });
    expect(diff.edges).toMatchObject({ added: ['e3'], removed: ['e2'], changed: [], renamed: [] });
    expect(diff.edges.ends).toEqual({ e3: { from: 'charge', to: 'refund' }, e2: { from: 'charge', to: 'done' } });
    // charge, refund and done each gained or lost an edge.
    expect(diff.steps.changed).toEqual([
      { id: 'charge', parts: ['edges'] },
      { id: 'refund', parts: ['edges'] },
      { id: 'done', parts: ['edges'] },
    ]);
    expect(diffSummaryLines(diff)).toEqual(['~ step charge: edges', '~ step refund: edges', '~ step done: edges', '+ edge e3: charge→refund', '- edge e2: charge→done']);
  });

  const edgeCases: [string, (b: Raw) => void, string][] = [
    ['rerouted', (b) => Object.assign(edge(b, 'e2'), { to: 'refund' }), 'e2: rerouted charge→done ⇒ charge→refund'],
    ['on', (b) => Object.assign(edge(b, 'e2'), { on: ['succeeded', 'failed'] }), 'e2: on'],
    ['when', (b) => Object.assign(edge(b, 'e2'), { when: 'output > 1' }), 'e2: when'],
    ['default', (b) => Object.assign(edge(b, 'e2'), { default: true }), 'e2: default'],
    ['maxTraversals', (b) => Object.assign(edge(b, 'e2'), { maxTraversals: 3 }), 'e2: maxTraversals'],
  ];
  it.each(edgeCases)('reports a change of %s as its part, and the edge on both its steps', (_name, change, line) => {
    const diff = diffWith(change);
    const lines = diffSummaryLines(diff);
    expect(lines).toContain(`~ edge ${line}`);
    expect(lines).toContain('~ step charge: edges');
    expect(diff.edges.added).toEqual([]);
    expect(diff.edges.removed).toEqual([]);
  });

  it('covers every edge part in the table above', () => {
    expect(edgeCases.map(([name]) => name)).toEqual([...EDGE_DIFF_PARTS]);
  });

  it('gives both routes of a rerouted edge, and marks old and new ends', () => {
    const diff = diffWith((b) => Object.assign(edge(b, 'e2'), { to: 'refund' }));
    expect(diff.edges.changed).toEqual([{ id: 'e2', parts: ['rerouted'], ends: { a: { from: 'charge', to: 'done' }, b: { from: 'charge', to: 'refund' } } }]);
    expect(diff.steps.changed.map((c) => c.id)).toEqual(['charge', 'refund', 'done']);
  });

  it('pairs a removed and an added edge with the same from, to and on as a rename', () => {
    const diff = diffWith((b) => Object.assign(edge(b, 'e1'), { id: 'fetch_charge', when: 'output.ok' }));
    expect(diff.edges).toMatchObject({ added: [], removed: [], changed: [], renamed: [{ was: 'e1', id: 'fetch_charge', parts: ['when'] }] });
    expect(diff.edges.ends).toEqual({ fetch_charge: { from: 'fetch', to: 'charge' } });
    expect(diffSummaryLines(diff)).toEqual(['~ step fetch: edges', '~ step charge: edges', '~ edge e1 renamed to fetch_charge: fetch→charge; when']);
  });

  it('does not pair edges that follow different outcomes: those are a removal and an addition', () => {
    const diff = diffWith((b) => Object.assign(edge(b, 'e1'), { id: 'e9', on: 'failed' }));
    expect(diff.edges).toMatchObject({ added: ['e9'], removed: ['e1'], renamed: [] });
  });

  it('pairs renames in document order when several edges share from, to and on', () => {
    const a = base();
    a.edges.push({ id: 'x1', from: 'fetch', to: 'done', when: 'a' }, { id: 'x2', from: 'fetch', to: 'done', when: 'b' });
    const b = base();
    b.edges.push({ id: 'y1', from: 'fetch', to: 'done', when: 'a' }, { id: 'y2', from: 'fetch', to: 'done', when: 'b' });
    const diff = diffWorkflows(wf(a), wf(b));
    expect(diff.edges.renamed).toEqual([{ was: 'x1', id: 'y1', parts: [] }, { was: 'x2', id: 'y2', parts: [] }]);
  });
});

describe('diffWorkflows: workflow level and layout', () => {
  it('reports each workflow part, and never version or $schema', () => {
    const diff = diffWith((b) => Object.assign(b, {
      version: 7,
      $schema: 'https://example.test/schema.json',
      name: 'Order v2',
      description: 'd',
      input: { type: 'object' },
      output: 'steps.charge.output',
      limits: { maxParallelRuns: 2 },
    }));
    expect(diff.workflow.changed).toEqual(['name', 'description', 'input', 'output', 'limits']);
    expect(diff.versions).toEqual({ a: 1, b: 7 });
    expect(diffSummaryLines(diff)).toEqual(['~ workflow: name, description, input, output, limits']);
    const bumped = diffWith((b) => Object.assign(b, { version: 2, $schema: 'x' }));
    expect(bumped).toMatchObject({ same: true, versions: { a: 1, b: 2 } });
  });

  it('reports a different workflow id', () => {
    expect(diffWith((b) => Object.assign(b, { id: 'other' })).workflow.changed).toEqual(['id']);
  });

  it('counts layout apart: moved, placed and unplaced boxes of steps in both; layoutOnly when that is all', () => {
    const diff = diffWith((b) => {
      b.layout = { fetch: { x: 0, y: 50 }, charge: { x: 100, y: 0 }, refund: { x: 5, y: 5 } };
    });
    // fetch moved, done lost its position, refund got one; charge stayed.
    expect(diff.layout.moved).toEqual(['fetch', 'refund', 'done']);
    expect(diff).toMatchObject({ layoutOnly: true, same: false });
    expect(isSameWorkflow(diff)).toBe(false);
    expect(diffSummaryLines(diff)).toEqual(['layout: 3 steps moved']);
  });

  it('ignores key order inside positions, and is not layoutOnly when something else changed too', () => {
    expect(diffWith((b) => {
      b.layout = { done: { y: 0, x: 200 }, charge: { y: 0, x: 100 }, fetch: { x: 0, y: 0 } };
    }).same).toBe(true);
    const diff = diffWith((b) => {
      b.layout = { fetch: { x: 1, y: 0 } };
      b.name = 'Renamed';
    });
    expect(diff).toMatchObject({ layoutOnly: false, layout: { moved: ['fetch', 'charge', 'done'] } });
    expect(diffSummaryLines(diff)).toEqual(['~ workflow: name', 'layout: 3 steps moved']);
  });

  it('does not count the boxes of added or removed steps as moved', () => {
    const diff = diffWith((b) => {
      b.steps.push({ id: 'extra', kind: 'end' });
      b.layout = { ...(b.layout as object), extra: { x: 9, y: 9 } };
    });
    expect(diff.layout.moved).toEqual([]);
    expect(diff.steps.added).toEqual(['extra']);
  });
});

describe('sameValue', () => {
  it.each<[unknown, unknown, boolean]>([
    [{ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 }, true],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: null }, { a: {} }, false],
    [[], {}, false],
    ['1', 1, false],
  ])('sameValue(%j, %j) is %s', (x, y, same) => {
    expect(sameValue(x, y)).toBe(same);
    expect(sameValue(y, x)).toBe(same);
  });
});
