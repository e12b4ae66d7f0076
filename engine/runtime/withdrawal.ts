// An activation outlives its reason when the edge that activated it is decided again and no longer
// taken: verify failed and opened a reconcile task, then an operator resolved the write, verify ran
// again and passed. The task answers a question nobody asks any more, and notify_intent, which
// waits for every incoming edge, would wait on it forever. Such an activation is withdrawn (settled
// `skipped`, so its own edges are not taken either) while it has not started work that could have
// an effect: ready, waiting for its retry, or waiting for a person, an event or a timer. A running
// attempt finishes and is recorded as it is; a step waiting on child runs keeps them (stopping
// children is an operator's decision).
import type { DefinitionIndex } from '../../shared/run/definition-index.ts';
import type { RunModel, StepRuntime } from '../../shared/run/run-model.ts';

const WITHDRAWABLE = new Set(['ready', 'retry_wait', 'waiting']);

/**
 * Why the step's current activation is to be withdrawn, or undefined to keep it: every incoming
 * edge's latest decision is "not taken", and at least one of them was decided after the
 * activation opened.
 *
 * @example
 * withdrawalReason(model, index, model.steps.get('reconcile')!)
 * // 'withdrawn: the edge that activated it, "verify_failed_to_reconcile", is no longer taken ("verify" succeeded)'
 */
export function withdrawalReason(run: RunModel, index: DefinitionIndex, s: StepRuntime): string | undefined {
  if (!WITHDRAWABLE.has(s.state) || s.children.size > 0 || s.compensates !== null) return undefined;
  const step = index.steps.get(s.id);
  if (step === undefined || step.kind === 'join') return undefined;
  const incoming = index.in.get(s.id) ?? [];
  if (incoming.length === 0) return undefined; // an entry step has no edge to lose
  const decisions = incoming.map((e) => ({ e, d: run.edges.get(e.edge.id) }));
  if (decisions.some(({ d }) => d === undefined || d.taken)) return undefined;
  const redecided = decisions.filter(({ d }) => (d?.seq ?? 0) > s.openedSeq);
  if (redecided.length === 0) return undefined;
  const names = redecided.map(({ e }) => `"${e.edge.id}"`).join(', ');
  const why = redecided.map(({ d }) => d?.why ?? '').filter((w) => w !== '').join('; ');
  return `withdrawn: the ${redecided.length === 1 ? 'edge that activated it' : 'edges that activated it'}, ${names}, ${redecided.length === 1 ? 'is' : 'are'} no longer taken${why === '' ? '' : ` (${why})`}`;
}
