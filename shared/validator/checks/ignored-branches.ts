// An `all` or `subset` join that ignores failed (or skipped) branches goes on without them, so an
// external step after it can take effect although such a branch, say the verification of an
// earlier write, never succeeded. Readers of an ignored branch's output are caught by the
// guaranteed-before analysis (missing-dependency); this check names the effects that follow.
import { joinBranchGuarantee } from '../graph/guaranteed-before.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkIgnoredBranches(ctx: ValidationContext): void {
  const { graph } = ctx;
  // One external step reachable after each step (first pass), found once in reverse order.
  const externalAfter = new Int32Array(graph.size).fill(-1);
  for (let k = graph.topo.length - 1; k >= 0; k--) {
    const v = graph.topo[k] as number;
    for (const e of graph.out[v] ?? []) {
      if (!e.forward) continue;
      const found = graph.step(e.to).effect === 'external' ? e.to : (externalAfter[e.to] ?? -1);
      if (found >= 0) {
        externalAfter[v] = found;
        break;
      }
    }
  }
  for (let v = 0; v < graph.size; v++) {
    const join = graph.step(v);
    if (join.kind !== 'join') continue;
    const effect = externalAfter[v] ?? -1;
    if (effect < 0) continue;
    const ignored = [...graph.forwardPreds(v).keys()].filter((p) => {
      const g = joinBranchGuarantee(join, graph.step(p));
      return g === 'before' || g === 'none';
    });
    if (ignored.length === 0) continue;
    const ids = ignored.map((p) => `"${graph.step(p).id}"`);
    const names = ids.length === 1 ? (ids[0] as string) : `${ids.slice(0, -1).join(', ')} or ${ids.at(-1) as string}`;
    const all = ids.join(', ');
    const effectId = graph.step(effect).id;
    const key = join.config?.onFailedBranch === 'ignore' ? 'onFailedBranch' : 'onCancelledBranch';
    const what = join.config?.onFailedBranch === 'ignore' ? (join.config.onCancelledBranch === 'ignore' ? 'fails or is skipped' : 'fails') : 'is skipped';
    ctx.atStep(v, ['config', key], {
      code: 'ignored-branch',
      severity: 'warning',
      message: `join "${join.id}" goes on when ${names} ${what} (${key}: "ignore"), and external step "${effectId}" runs after it: its effect can happen although ${ids.length === 1 ? 'that branch' : 'one of them'} did not succeed`,
      hint: `remove "${key}": "ignore" so the join needs ${all} (and route its "failed" outcome or escalate), or mark ${all} "optional": true if "${effectId}" truly does not depend on it`,
    });
  }
}
