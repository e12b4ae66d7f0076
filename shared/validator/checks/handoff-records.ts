// Handoff records (docs/long-running.md, "Handoff records"): a step that gives one must be of a
// kind whose own work shapes its output, into an object; a step that receives one (`handoffFrom`)
// reads it like any read of another step, so the giving step must exist, give a handoff, and have
// certainly finished before the receiver on every path (the same guaranteed-before table as
// expression reads, expressions/read-analysis.ts).
import { KIND_SPECS } from '../../definition/step-kinds.ts';
import { readScopeOf } from '../expressions/read-analysis.ts';
import { suggest } from './ids-and-references.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkHandoffRecords(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.handoff === true) checkGiver(ctx, v);
    if (step.handoffFrom !== undefined) checkReceiver(ctx, v, step.handoffFrom);
  }
}

function checkGiver(ctx: ValidationContext, v: number): void {
  const step = ctx.graph.step(v);
  if (!KIND_SPECS[step.kind].handoff) {
    ctx.atStep(v, ['handoff'], {
      code: 'invalid-handoff',
      message: `${step.kind} step "${step.id}" declares "handoff": true, but the engine builds a ${step.kind} step's output, so it cannot carry a handoff record`,
      hint: 'give the handoff from the step that does the work (agent, script, command, transform or subworkflow), or add a transform after this step that returns { ..., "handoff": { "completed": ..., "next": ... } }',
    });
    return;
  }
  if (step.kind === 'agent' && step.config.responseFormat === 'text') {
    ctx.atStep(v, ['handoff'], {
      code: 'invalid-handoff',
      message: `agent step "${step.id}" replies with text (responseFormat "text"), so its output cannot carry a handoff record`,
      hint: 'set "responseFormat": "json" (the default) and ask for the reply with a "handoff" key, or remove "handoff"',
    });
    return;
  }
  const type = step.output?.type;
  if (type !== undefined && type !== 'object') {
    ctx.atStep(v, ['output', 'type'], {
      code: 'invalid-handoff',
      message: `step "${step.id}" gives a handoff record, but its output schema says the output is ${JSON.stringify(type)}; the record is the "handoff" key of an object`,
      hint: 'make the output an object ("type": "object") that holds the result beside "handoff"',
    });
  }
}

function checkReceiver(ctx: ValidationContext, v: number, from: string): void {
  const { graph } = ctx;
  const step = graph.step(v);
  const x = graph.indexOf.get(from);
  if (x === undefined) {
    ctx.atStep(v, ['handoffFrom'], {
      code: 'unknown-step-reference',
      message: `step "${step.id}" receives the handoff of step "${from}", which does not exist`,
      hint: `name the step that hands over to "${step.id}"${suggest(from, graph.indexOf.keys())}`,
    });
    return;
  }
  if (x === v) {
    ctx.atStep(v, ['handoffFrom'], {
      code: 'invalid-handoff',
      message: `step "${step.id}" receives its own handoff`,
      hint: 'name the upstream step that hands over to it',
    });
    return;
  }
  const giver = graph.step(x);
  if (giver.handoff !== true) {
    ctx.atStep(v, ['handoffFrom'], {
      code: 'no-handoff',
      message: `step "${step.id}" receives the handoff of "${from}", but "${from}" gives none`,
      hint: KIND_SPECS[giver.kind].handoff
        ? `add "handoff": true to step "${from}" (${stepPath(ctx, x)}) and have it return its record as output.handoff, or remove "handoffFrom"`
        : `a ${giver.kind} step cannot give a handoff; name the step that does the work, or remove "handoffFrom"`,
    });
    return;
  }
  if (!readScopeOf(graph, ctx.workflow).before.has(v, x)) {
    ctx.atStep(v, ['handoffFrom'], {
      code: 'missing-dependency',
      message: `step "${step.id}" receives the handoff of "${from}", but "${from}" has not certainly finished with an output before "${step.id}" on every path`,
      hint: `receive the handoff of a step upstream of "${step.id}" on every path (an edge on succeeded from "${from}", or an "all" join), or move "handoffFrom" to a step after "${from}"`,
    });
  }
}

const stepPath = (ctx: ValidationContext, v: number): string => `$.steps[${ctx.graph.stepFileIndex[v] ?? 0}]`;
