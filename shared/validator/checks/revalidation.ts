// `revalidate` (docs/long-running.md, "Revalidation on resume"): a check a waiting step runs when
// it resumes. Only the kinds that wait (human, event, wait) resume, so only they may declare one;
// only a step that declares one settles `stale`; a `stale` nobody routes asks a person; and the
// read a check runs first (`fetch`) must be a read, and only a check with one reads `$fetched`.
import { waitsOnTheWorld } from '../../definition/step-kinds.ts';
import type { ValidationContext } from '../validation-context.ts';
import { variableReads } from '../expressions/activation.ts';

export function checkRevalidation(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.revalidate === undefined) continue;
    if (!waitsOnTheWorld(step.kind)) {
      ctx.atStep(v, ['revalidate'], {
        code: 'revalidate-not-waiting',
        message: `${step.kind} step "${step.id}" declares "revalidate", but only a step that waits (human, event, wait) resumes and re-checks`,
        hint: 'move "revalidate" to the human, event or wait step after which the assumption may be out of date',
      });
      continue;
    }
    const fetch = step.revalidate.fetch;
    if (fetch !== undefined && fetch.effect !== 'read' && !(fetch.kind === 'http' && (fetch.config.method === 'GET' || fetch.config.method === 'HEAD'))) {
      const what = fetch.kind === 'http' ? `an http ${fetch.config.method}` : `a ${fetch.kind}`;
      ctx.atStep(v, ['revalidate', 'fetch'], {
        code: 'revalidate-fetch-not-read',
        message: `the revalidate check of "${step.id}" runs ${what}, which may change something; a check must only read, since it runs again on every resume`,
        hint: fetch.kind === 'http' ? 'use method GET or HEAD, or add "effect": "read" to "fetch" if this request only reads (a search by POST)' : `add "effect": "read" to "fetch" if this ${fetch.kind} only reads; otherwise make it a step of its own, routed from "stale"`,
      });
    }
    const parsed = ctx.expressions.parse(step.revalidate.check);
    if (fetch === undefined && parsed.ok && variableReads(parsed.ast, 'fetched', parsed.shape).length > 0) {
      ctx.atStep(v, ['revalidate', 'check'], {
        code: 'revalidate-fetched-without-fetch',
        message: `the revalidate check of "${step.id}" reads $fetched, but declares no "fetch": $fetched is nothing there, so the check never holds`,
        hint: 'add "fetch" to "revalidate" (an http GET of what to read again), or check what the run already knows without $fetched',
      });
    }
    const outs = graph.out[v] ?? [];
    if (!outs.some((e) => e.outcomes.has('stale') || e.outcomes.has('any'))) {
      ctx.atStep(v, ['revalidate'], {
        code: 'unhandled-stale',
        severity: 'warning',
        message: `"${step.id}" may settle "stale" when its revalidate check fails, and no edge follows "stale": the run will need attention`,
        hint: `add an edge from "${step.id}" with "on": "stale" to a step that fetches the data again, asks a person, or ends the run`,
      });
    }
  }
  for (const e of graph.edges) {
    if (!e.outcomes.has('stale')) continue;
    const from = graph.step(e.from);
    if (from.revalidate !== undefined && waitsOnTheWorld(from.kind)) continue;
    ctx.atEdge(e, ['on'], {
      code: 'stale-edge-never-taken',
      message: `edge "${e.edge.id}" follows "stale", but "${from.id}" has no "revalidate" check, so it never settles stale`,
      hint: `give "${from.id}" a "revalidate" check (it must be a human, event or wait step), or follow another outcome`,
    }, from.id);
  }
}
