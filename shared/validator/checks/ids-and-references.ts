// Duplicate ids and references to steps that do not exist.
import type { ValidationContext } from '../validation-context.ts';

export function checkIdsAndReferences(ctx: ValidationContext): void {
  const { workflow, graph } = ctx;
  const firstStep = new Map<string, number>();
  workflow.steps.forEach((step, i) => {
    const first = firstStep.get(step.id);
    if (first === undefined) firstStep.set(step.id, i);
    else {
      ctx.at(['steps', i, 'id'], {
        code: 'duplicate-step-id',
        message: `step id "${step.id}" is used by steps[${first}] and steps[${i}]`,
        hint: 'give every step its own id; edges and expressions refer to steps by id',
      }, { stepId: step.id });
    }
  });
  const firstEdge = new Map<string, number>();
  workflow.edges.forEach((edge, i) => {
    const first = firstEdge.get(edge.id);
    if (first === undefined) firstEdge.set(edge.id, i);
    else {
      ctx.at(['edges', i, 'id'], {
        code: 'duplicate-edge-id',
        message: `edge id "${edge.id}" is used by edges[${first}] and edges[${i}]`,
        hint: 'give every edge its own id',
      }, { edgeId: edge.id });
    }
    for (const end of ['from', 'to'] as const) {
      if (!graph.indexOf.has(edge[end])) {
        ctx.at(['edges', i, end], {
          code: 'unknown-step-reference',
          message: `edge "${edge.id}" ${end === 'from' ? 'starts at' : 'leads to'} step "${edge[end]}", which does not exist`,
          hint: `use the id of an existing step${suggest(edge[end], graph.indexOf.keys())}`,
        }, { edgeId: edge.id });
      }
    }
  });
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.compensation !== undefined) {
      if (!graph.indexOf.has(step.compensation)) {
        ctx.atStep(v, ['compensation'], {
          code: 'unknown-step-reference',
          message: `compensation names step "${step.compensation}", which does not exist`,
          hint: `add the compensating step or fix the id${suggest(step.compensation, graph.indexOf.keys())}`,
        });
      } else if (step.compensation === step.id) {
        ctx.atStep(v, ['compensation'], {
          code: 'invalid-compensation',
          message: 'a step cannot compensate itself',
          hint: 'name a separate step that offsets this one, such as cancel_order for create_order',
        });
      } else {
        const c = graph.indexOf.get(step.compensation) as number;
        if ((graph.in[c] ?? []).length > 0) {
          ctx.atStep(c, [], {
            code: 'invalid-compensation',
            message: `step "${step.compensation}" is the compensation of "${step.id}" but also has incoming edges`,
            hint: 'the engine starts compensation steps itself; remove the edges into it or use a separate step',
          });
        }
      }
    }
    if (step.kind === 'end') {
      for (const e of graph.out[v] ?? []) {
        ctx.atEdge(e, ['from'], {
          code: 'edge-from-end',
          message: `edge "${e.edge.id}" leaves end step "${step.id}"; an end step finishes its path`,
          hint: 'start the edge from the step before the end step, or change the end step into another kind',
        }, step.id);
      }
    }
    if (step.resource !== undefined && workflow.limits?.concurrency?.[step.resource] === undefined) {
      ctx.atStep(v, ['resource'], {
        code: 'unknown-resource',
        severity: 'warning',
        message: `resource "${step.resource}" has no limit in limits.concurrency, so it limits nothing`,
        hint: `add "limits": {"concurrency": {"${step.resource}": 2}} or remove the resource`,
      });
    }
  }
  for (const key of Object.keys(workflow.layout ?? {})) {
    if (!graph.indexOf.has(key)) {
      ctx.at(['layout', key], {
        code: 'unknown-step-reference',
        severity: 'warning',
        message: `layout has a position for step "${key}", which does not exist`,
        hint: 'remove the stale layout entry; the editor rewrites layout on save',
      });
    }
  }
}

/** "; did you mean "x"?" for a near-miss id, else ''. */
export function suggest(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - name.length) >= bestDistance) continue;
    const d = editDistance(name, c, bestDistance);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best === undefined ? '' : `; did you mean "${best}"?`;
}

function editDistance(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length] ?? cap;
}
