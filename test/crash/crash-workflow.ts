// The workflow the kill-restart test runs: stages of parallel branches, each fanned out from the
// previous join and gathered again by a `join` (mode all), ending in one `end`. Branches mix
// idempotent command steps (which append `<step> <activation> <attempt>` to one file, then sleep),
// external command steps (same, to another file; their `unknown` outcome leads on, so a crash
// during one does not stop the run) and transform steps. The side effect comes before the sleep,
// so a kill during the sleep leaves an effect that happened but whose completion was not recorded.
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import { between, seededRandom } from './seeded-random.ts';

export interface CrashWorkflowOptions {
  steps: number;
  seed: number;
  /** File the idempotent steps append to. */
  idempotentOut: string;
  /** File the external steps append to. */
  externalOut: string;
  /** Sleep of each command step, in ms (each step picks one in the range). */
  sleepMs: [number, number];
  /** A person signs off (`sign_off`, a human step) before the end: the run waits there until approved. */
  signOff?: boolean;
}

export interface CrashWorkflow {
  workflow: Workflow;
  idempotent: string[];
  external: string[];
}

type WorkKind = 'idempotent' | 'external' | 'transform';

/**
 * @example
 * const { workflow } = crashWorkflow({ steps: 40, seed: 1, idempotentOut, externalOut, sleepMs: [60, 220] });
 */
export function crashWorkflow(o: CrashWorkflowOptions): CrashWorkflow {
  const random = seededRandom(o.seed);
  const steps: Step[] = [];
  const edges: Edge[] = [];
  const idempotent: string[] = [];
  const external: string[] = [];
  const kindOf = new Map<string, Step>();
  let counter = 0;

  const add = (step: Step): string => {
    steps.push(step);
    kindOf.set(step.id, step);
    return step.id;
  };
  // An external step's unknown outcome leads on like a success: the run must not stop on it.
  const connect = (from: string, to: string): void => {
    const external = kindOf.get(from)?.effect === 'external';
    edges.push({ id: `${from}-${to}`, from, to, ...(external ? { on: ['succeeded', 'unknown'] } : {}) });
  };
  const command = (kind: 'idempotent' | 'external'): Step => {
    const id = `${kind === 'idempotent' ? 'idem' : 'ext'}_${++counter}`;
    const sleep = (between(random, o.sleepMs[0], o.sleepMs[1]) / 1000).toFixed(3);
    (kind === 'idempotent' ? idempotent : external).push(id);
    return {
      id,
      kind: 'command',
      effect: kind,
      config: {
        argv: ['sh', '-c', `echo "$WEFT_STEP_ID $WEFT_ACTIVATION $WEFT_ATTEMPT" >> "$OUT"; sleep ${sleep}; echo '{}'`],
        env: { OUT: kind === 'idempotent' ? o.idempotentOut : o.externalOut },
      },
      retry: { maxAttempts: 1 },
      // Steps downstream of an external effect must say what happens when they fail.
      onExhausted: 'escalate',
    };
  };
  const work = (kind: WorkKind): Step =>
    kind === 'transform'
      ? { id: `calc_${++counter}`, kind: 'transform', config: { expression: `{ "n": ${counter}, "order": input.order }` } }
      : command(kind);
  const pickKind = (): WorkKind => {
    const r = random();
    return r < 0.5 ? 'idempotent' : r < 0.75 ? 'external' : 'transform';
  };

  let last = add({ id: 'start', kind: 'transform', config: { expression: '{ "order": input.order }' } });
  // start and end are 2 steps; each stage is 2-4 branches of 1-2 steps plus their join.
  let left = o.steps - 2;
  let stage = 0;
  while (left >= 3) {
    let size = Math.min(left, between(random, 4, 7));
    if (left - size < 3) size = left; // too few would be left for another stage
    const n = size - 1;
    const count = between(random, Math.max(2, Math.ceil(n / 2)), Math.min(4, n));
    const lengths = Array.from({ length: count }, () => 1);
    for (let extra = n - count; extra > 0; ) {
      const b = between(random, 0, count - 1);
      if ((lengths[b] ?? 0) < 2) {
        lengths[b] = 2;
        extra--;
      }
    }
    const heads = lengths.map((length) => {
      let from = last;
      for (let k = 0; k < length; k++) {
        const id = add(work(pickKind()));
        connect(from, id);
        from = id;
      }
      return from;
    });
    const join = add({ id: `join_${++stage}`, kind: 'join', config: { mode: 'all' }, onExhausted: 'escalate' });
    for (const h of heads) connect(h, join);
    last = join;
    left -= size;
  }
  for (; left > 0; left--) {
    const id = add(work(pickKind()));
    connect(last, id);
    last = id;
  }
  if (o.signOff === true) {
    const signOff = add({ id: 'sign_off', kind: 'human', deadlineMs: 86_400_000, config: { task: 'approve', title: 'Sign off the run' } });
    connect(last, signOff);
    last = signOff;
    const refused = add({ id: 'refused', kind: 'end', config: { status: 'failed' } });
    edges.push({ id: 'sign_off-refused', from: signOff, to: refused, on: ['rejected', 'expired'] });
  }
  const end = add({ id: 'end', kind: 'end' });
  connect(last, end);

  return {
    workflow: {
      format: 'weft/v1',
      id: 'crash-fan-out',
      version: 1,
      name: 'Crash test: parallel branches with idempotent and external effects',
      input: { type: 'object', properties: { order: { type: 'integer' } }, required: ['order'] },
      steps,
      edges,
    },
    idempotent,
    external,
  };
}
