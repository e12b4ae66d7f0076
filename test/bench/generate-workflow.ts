// Large, realistic-looking workflows for the validator benchmark and for tests that need volume:
// chains of transform/agent/script steps with output schemas and inputs that read upstream
// outputs, parallel fan-outs into `all` joins, routers with conditions and a default, human
// approvals with deadlines, one end. Seeded, so a given size always yields the same file.
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { seededRandom } from '../../engine/runtime/virtual-clock.ts';

export interface GenerateOptions {
  /** Exact number of steps (at least 2). */
  steps: number;
  seed?: number;
  /** Every Nth chain step reads an output field its source does not declare: a planted error. 0: none. */
  flawEvery?: number;
}

export interface GeneratedWorkflow {
  workflow: Workflow;
  /** How many planted errors the validator should find (reads of undeclared output fields). */
  planted: number;
}

/** A step known to have finished where the next step runs, and the output fields one may read. */
interface Source {
  id: string;
  fields: readonly string[];
  /** The fields come from an `output` schema, so reading another field is an error. */
  declared: boolean;
}

type WorkKind = 'transform' | 'agent' | 'script';

const FIELDS: Record<WorkKind, Record<string, string>> = {
  transform: { value: 'number', label: 'string' },
  agent: { summary: 'string', category: 'string', confidence: 'number' },
  script: { total: 'number', status: 'string' },
};
const NAMES: Record<WorkKind, readonly string[]> = {
  transform: ['normalise', 'combine', 'score', 'extract'],
  agent: ['classify', 'summarise', 'draft_reply', 'find_entities'],
  script: ['lookup_customer', 'compute_price', 'check_stock'],
};

/**
 * @example
 * const { workflow } = generateWorkflow({ steps: 1000, seed: 1 });
 * const text = JSON.stringify(workflow, null, 2);
 */
export function generateWorkflow(options: GenerateOptions): GeneratedWorkflow {
  const random = seededRandom(options.seed ?? 1);
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const flawEvery = options.flawEvery ?? 0;
  const steps: Step[] = [];
  const edges: Edge[] = [];
  const layout: Record<string, { x: number; y: number }> = {};
  let counter = 0;
  let chainSteps = 0;
  let planted = 0;
  let column = 0;
  let rejectedEnd: string | undefined;

  const add = (step: Step, row = 0): string => {
    steps.push(step);
    layout[step.id] = { x: column * 240, y: row * 140 };
    return step.id;
  };
  const connect = (from: string, to: string, extra: Partial<Edge> = {}): void => {
    edges.push({ id: `${from}-${to}`, from, to, ...extra });
  };
  const nextId = (name: string): string => `${name}_${++counter}`;

  /** `steps.X.output.f` for up to two recent sources; with `flaw`, the first names an undeclared field. */
  const reads = (sources: readonly Source[], flaw: boolean): string[] =>
    sources.slice(0, 2).map((s, k) => `steps.${s.id}.output.${flaw && k === 0 ? `missing_${counter}` : pick(s.fields)}`);
  const readExpression = (sources: readonly Source[], flaw: boolean): string => {
    const parts = ['"orderId": input.orderId', ...reads(sources, flaw).map((r, k) => `"${'ab'[k] ?? 'c'}": ${r}`)];
    return `{ ${parts.join(', ')} }`;
  };

  const workStep = (kind: WorkKind, sources: readonly Source[]): Step => {
    chainSteps++;
    const flaw = flawEvery > 0 && chainSteps % flawEvery === 0 && sources[0]?.declared === true;
    if (flaw) planted++;
    const id = nextId(pick(NAMES[kind]));
    const output = objectSchema(FIELDS[kind]);
    if (kind === 'transform') {
      const [first = 'input.orderId', second = 'input.region'] = reads(sources, flaw);
      return { id, kind, output, config: { expression: `{ "value": $length($string(${first})), "label": $string(${second}) }` } };
    }
    const input = readExpression(sources, flaw);
    if (kind === 'script') {
      return { id, kind, input, output, timeoutMs: 10_000, config: { module: './scripts/orders.ts', export: id.replace(/_\d+$/, '') } };
    }
    return {
      id,
      kind,
      input,
      output,
      resource: 'llm',
      timeoutMs: 60_000,
      retry: { maxAttempts: 3, initialIntervalMs: 500, backoffCoefficient: 2 },
      ...(random() < 0.3 ? { accept: 'output.confidence >= 0.5' } : {}),
      config: {
        provider: 'mock',
        prompt: 'Read the request for order {{ input.orderId }} and answer as JSON.',
        responseFormat: 'json',
        mock: { replies: [{ output: { summary: 'a short summary', category: 'billing', confidence: 0.9 } }] },
      },
    };
  };

  /** Appends `length` work steps after `tail`; returns the new tail and what is readable after it. */
  const chain = (tail: string | undefined, sources: readonly Source[], length: number, row = 0, firstEdge: Partial<Edge> = {}) => {
    let current = tail;
    let readable = sources;
    for (let i = 0; i < length; i++) {
      const kind = pick<WorkKind>(['transform', 'transform', 'agent', 'script']);
      const id = add(workStep(kind, readable), row);
      if (current !== undefined) connect(current, id, i === 0 ? firstEdge : {});
      current = id;
      readable = [{ id, fields: Object.keys(FIELDS[kind]), declared: true }, ...readable].slice(0, 4);
      column++;
    }
    return { tail: current ?? '', readable };
  };

  const fanOut = (tail: string, sources: readonly Source[], lengths: readonly number[]) => {
    const start = column;
    const ends = lengths.map((length, row) => {
      column = start;
      return chain(tail, sources, length, row);
    });
    column = start + Math.max(...lengths);
    const heads = ends.map((e) => e.readable[0]).filter((s): s is Source => s !== undefined);
    const join = add({
      id: nextId('join'),
      kind: 'join',
      config: { mode: 'all', onFailedBranch: 'fail' },
      input: `{ "parts": [${heads.map((h) => `steps.${h.id}.output.${h.fields[0] ?? 'value'}`).join(', ')}] }`,
    });
    column++;
    for (const e of ends) connect(e.tail, join);
    // After an `all` join every branch has finished, so their outputs are readable.
    return { tail: join, readable: [...heads, ...sources].slice(0, 4) };
  };

  const route = (tail: string, sources: readonly Source[], lengths: readonly number[]) => {
    const source = sources[0];
    const router = add({
      id: nextId('route'),
      kind: 'router',
      input: source === undefined ? '{ "score": 0 }' : `{ "score": $count(steps.${source.id}.output.*), "region": input.region }`,
    });
    connect(tail, router);
    column++;
    const routed: Source[] = [{ id: router, fields: ['score', 'region'], declared: false }, ...sources];
    const start = column;
    const ends = lengths.map((length, row) => {
      column = start;
      const last = row === lengths.length - 1;
      return chain(router, routed, length, row, last ? { default: true } : { when: `output.score > ${lengths.length - row}` });
    });
    column = start + Math.max(...lengths);
    // Branches of one router exclude each other: only an `any` join may merge them.
    const rejoin = add({ id: nextId('rejoin'), kind: 'join', config: { mode: 'any' } });
    column++;
    for (const e of ends) connect(e.tail, rejoin);
    return { tail: rejoin, readable: routed.slice(0, 4) };
  };

  const approve = (tail: string, sources: readonly Source[]) => {
    const id = add({
      id: nextId('approve'),
      kind: 'human',
      deadlineMs: 86_400_000,
      input: readExpression(sources, false),
      config: { task: 'approve', title: 'Approve the order', instructions: 'Check order {{ input.orderId }} before it ships.', assignee: 'ops' },
    });
    column++;
    connect(tail, id);
    if (rejectedEnd === undefined) rejectedEnd = add({ id: 'rejected', kind: 'end', config: { status: 'failed' } }, 3);
    connect(id, rejectedEnd, { on: ['rejected', 'expired'] });
    return { tail: id, readable: [{ id, fields: ['decision', 'by'], declared: false }, ...sources].slice(0, 4) };
  };

  let remaining = Math.max(2, options.steps) - 1; // the final end step
  let at = chain(undefined, [], 1);
  remaining -= 1;
  while (remaining > 0) {
    const roll = random();
    const lengths = Array.from({ length: int(2, 4) }, () => int(1, 2));
    const branchSteps = lengths.reduce((a, b) => a + b, 0);
    if (roll < 0.25 && branchSteps + 1 <= remaining) {
      at = fanOut(at.tail, at.readable, lengths);
      remaining -= branchSteps + 1;
    } else if (roll < 0.45 && branchSteps + 2 <= remaining) {
      at = route(at.tail, at.readable, lengths);
      remaining -= branchSteps + 2;
    } else if (roll < 0.52 && remaining >= 2) {
      const needed = rejectedEnd === undefined ? 2 : 1;
      at = approve(at.tail, at.readable);
      remaining -= needed;
    } else {
      const length = Math.min(remaining, int(1, 4));
      at = chain(at.tail, at.readable, length);
      remaining -= length;
    }
  }
  connect(at.tail, add({ id: 'done', kind: 'end', config: { status: 'succeeded' } }));

  return {
    planted,
    workflow: {
      format: 'weft/v1',
      id: `generated-${options.steps}`,
      version: 1,
      name: `Generated order workflow (${options.steps} steps)`,
      description: 'Generated by test/bench/generate-workflow.ts for benchmarks and volume tests.',
      input: objectSchema({ orderId: 'string', region: 'string' }),
      steps,
      edges,
      limits: { concurrency: { llm: 4 } },
      layout,
    },
  };
}

/** A cycle of `n` transform steps with no `maxTraversals`: a worst case for cycle detection. */
export function generateRing(n: number): Workflow {
  const id = (i: number): string => `ring_${i % n}`;
  return {
    format: 'weft/v1',
    id: `ring-${n}`,
    version: 1,
    name: `Ring of ${n} steps`,
    steps: Array.from({ length: n }, (_, i) => ({ id: id(i), kind: 'transform' as const, config: { expression: `{ "lap": ${i} }` } })),
    edges: Array.from({ length: n }, (_, i) => ({ id: `${id(i)}-${id(i + 1)}`, from: id(i), to: id(i + 1) })),
  };
}

function objectSchema(fields: Record<string, string>): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }]));
  return { type: 'object', properties, required: Object.keys(fields) };
}

