// Where a step's input came from in a run: for each field its expressions read (the handoff
// analysis of the run's definition, the same reads the validator checks), the upstream step and
// the attempt whose evidence the run holds for it, or the run's input. A pure function of the
// definition and the RunDetail, so it works for any folded prefix of the log too.
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { Handoffs } from '../../../shared/validator/handoffs/handoff-types.ts';
import { analyzeHandoffs } from '../../../shared/validator/handoffs/analyze-handoffs.ts';

const analysed = new WeakMap<Workflow, Map<string, Handoffs>>();

/**
 * The handoff analysis of one step of a run's definition (its reads only: analysing the whole
 * workflow takes a tenth of a second at 1,000 steps, on the way to the step detail's first view),
 * made once per definition object and step: the step detail asks again at each tab it opens.
 */
export function handoffsOf(definition: Workflow, stepId: string): Handoffs {
  let byStep = analysed.get(definition);
  if (byStep === undefined) analysed.set(definition, (byStep = new Map()));
  let found = byStep.get(stepId);
  if (found === undefined) {
    found = analyzeHandoffs(definition, undefined, { reader: stepId });
    byStep.set(stepId, found);
  }
  return found;
}

export interface ProvenanceEntry {
  /** The read, as written: `steps.draft.output.text`, `input.topic`. */
  field: string;
  /** Where in the step the read is: `input`, `config.url`, ... */
  where: string;
  source: { kind: 'input' } | { kind: 'run' } | { kind: 'step'; stepId: string; attemptId: string | null; evidenceId: string | null; state: string } | { kind: 'unknown'; name: string };
  /** The source had certainly finished on every path to this step (from the definition). */
  guaranteed: boolean;
}

/** The reads of one step (not of its outgoing edges' conditions), with their sources in this run. */
export function provenanceOf(definition: Workflow, handoffs: Handoffs, detail: Pick<RunDetail, 'steps'>, stepId: string): ProvenanceEntry[] {
  const index = definition.steps.findIndex((s) => s.id === stepId);
  if (index < 0) return [];
  const prefix = `$.steps[${index}]`;
  const seen = new Set<string>();
  const out: ProvenanceEntry[] = [];
  for (const read of handoffs.steps[stepId] ?? []) {
    if (read.edgeId !== undefined || !read.site.startsWith(prefix)) continue;
    const where = read.site.slice(prefix.length).replace(/^\./, '') || 'step';
    const key = `${where}|${read.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field: read.field, where, guaranteed: read.guaranteed, source: sourceIn(detail, read.source) });
  }
  return out;
}

function sourceIn(detail: Pick<RunDetail, 'steps'>, source: Handoffs['steps'][string][number]['source']): ProvenanceEntry['source'] {
  if (source.kind === 'input' || source.kind === 'run') return { kind: source.kind };
  if (source.kind === 'unresolved') return { kind: 'unknown', name: source.name };
  const step = detail.steps.find((s) => s.id === source.stepId);
  if (step === undefined) return { kind: 'unknown', name: source.stepId };
  // The evidence the run holds for the source is what its readers got; else its latest attempt.
  const attemptId = step.evidence?.attempt ?? step.attempts.at(-1)?.id ?? null;
  return { kind: 'step', stepId: step.id, attemptId, evidenceId: step.evidence?.id ?? null, state: step.state };
}
