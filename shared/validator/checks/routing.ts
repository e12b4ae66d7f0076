// Routers need one default edge and real conditions; no two edges of a step may test the same
// condition on the same outcome (the second could never be the reason a path is taken).
import { spacingInsensitiveKey } from '../expressions/expression-shape.ts';
import type { GraphEdge } from '../graph/workflow-graph.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkRouting(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    const outs = graph.out[v] ?? [];
    const isRouter = step.kind === 'router';
    const defaults = outs.filter((e) => e.edge.default === true);
    if (isRouter) {
      if (defaults.length === 0 && outs.length > 0) {
        ctx.atStep(v, [], {
          code: 'router-without-default',
          message: `router "${step.id}" has no default edge, so a run stalls when no condition matches`,
          hint: 'mark one outgoing edge with "default": true and no "when"',
        });
      }
      for (const e of defaults.slice(1)) {
        ctx.atEdge(e, ['default'], {
          code: 'multiple-default-edges',
          message: `router "${step.id}" has more than one default edge ("${defaults[0]?.edge.id}" and "${e.edge.id}")`,
          hint: 'keep one default edge; give the others a "when" condition',
        }, step.id);
      }
      for (const e of outs) {
        // An exhausted edge is decided after the conditions, only when a loop edge is used up.
        if (e.edge.default !== true && e.edge.when === undefined && !e.outcomes.has('exhausted')) {
          ctx.atEdge(e, [], {
            code: 'router-edge-without-condition',
            message: `edge "${e.edge.id}" of router "${step.id}" has no "when", so it always matches and hides the edges after it`,
            hint: 'add a "when" condition, or make it the router\'s default edge',
          }, step.id);
        }
      }
    } else {
      for (const e of defaults) {
        ctx.atEdge(e, ['default'], {
          code: 'default-outside-router',
          message: `edge "${e.edge.id}" is marked default but "${step.id}" is a ${step.kind} step, not a router`,
          hint: 'put a router step after it to choose between paths, or remove "default"',
        }, step.id);
      }
    }
    for (const e of defaults) {
      if (e.edge.when !== undefined) {
        ctx.atEdge(e, ['when'], {
          code: 'default-edge-with-condition',
          message: `default edge "${e.edge.id}" also has a condition; a default edge is taken exactly when no condition matches`,
          hint: 'remove "when" from the default edge',
        }, step.id);
      }
    }
    checkDuplicateConditions(ctx, outs);
  }
}

function checkDuplicateConditions(ctx: ValidationContext, outs: readonly GraphEdge[]): void {
  const seen = new Map<string, GraphEdge[]>();
  for (const e of outs) {
    if (e.edge.when === undefined) continue;
    const parsed = ctx.expressions.parse(e.edge.when);
    const key = parsed.ok ? spacingInsensitiveKey(e.edge.when, parsed.shape) : e.edge.when;
    const earlier = seen.get(key) ?? [];
    const clash = earlier.find((p) => [...p.outcomes].some((o) => e.outcomes.has(o) || o === 'any') || e.outcomes.has('any'));
    if (clash) {
      ctx.atEdge(e, ['when'], {
        code: 'duplicate-condition',
        message: `edges "${clash.edge.id}" and "${e.edge.id}" of step "${ctx.graph.step(e.from).id}" test the same condition "${e.edge.when}"`,
        hint: 'give each edge a distinct condition, or merge the edges into one and fan out after it',
      }, ctx.graph.step(e.from).id);
    }
    seen.set(key, [...earlier, e]);
  }
}
