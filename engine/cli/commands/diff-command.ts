// `weft diff A B [--store URL|PATH | --db PATH] [--json]`: what changed between two versions of a
// workflow, each a file or WORKFLOW@VERSION from the store. The diff itself is
// shared/definition/workflow-diff.ts, the same one the app's diff view shows.
import { resolve } from 'node:path';
import { diffSummaryLines, diffWorkflows, isSameWorkflow } from '../../../shared/definition/workflow-diff.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { CliIo } from '../cli-io.ts';
import type { Command } from '../command.ts';
import { diffSource, loadFileSide, loadStoredSide, type DiffSource } from '../diff-source.ts';
import { withReadOnlyStore } from '../engine-session.ts';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storeName, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const diffCommand: Command = {
  name: 'diff',
  summary: 'show what changed between two versions of a workflow',
  usage: 'weft diff A B [--store URL|PATH | --db PATH] [--json]',
  help: `Compares workflow A with workflow B: steps and edges added, removed or changed (and in
which parts), workflow-level changes, and boxes moved in the layout. Nothing is run.

  A, B        a workflow file (NAME.weft.json), or WORKFLOW@VERSION for a version that has
              run, read from the store (for a file with such a name, write ./NAME@2)
${storeFlagsHelp(14, 'the store for WORKFLOW@VERSION')}
  --json      print {"steps":{"added","removed","changed":[{"id","parts"}]},
              "edges":{"added","removed","changed":[{"id","parts"}],"renamed"},
              "layoutOnly","workflow":{"changed"},"layout":{"moved"},"versions":{"a","b"},
              "same"} (docs/diff.md)

One line per change: "+ step notify (http)", "- step x (script)", "~ step charge: config,
retry", "~ edge a_b: rerouted a→b ⇒ a→c", "layout: 3 steps moved"; "no differences" when
there are none. "version" and "$schema" never count as differences. The store keeps no
layout, so layout is compared only between two files.

Exit status: 0 no differences, 1 they differ (layout only included), 2 usage error, or a side
that cannot be read (a missing file, a file that is not a definition, an unknown version).`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length !== 2) {
      throw new UsageError(`give exactly two workflows to compare (got ${positionals.length}): each a NAME.weft.json file or WORKFLOW@VERSION`);
    }
    const sources = positionals.map((arg, i) => diffSource(arg, i === 0 ? 'A' : 'B', (p) => resolve(io.cwd, p)));
    const json = values.json === true;
    if (!sources.some((s) => s.kind === 'stored')) return compare(await loadAll(sources), io, json, true);
    const store = await storeName(storePath(values, io.cwd), io.cwd);
    return withReadOnlyStore('diff', io, values, async (reader) => compare(await loadAll(sources, (s) => loadStoredSide(s, reader, store)), io, json, false));
  },
};

type LoadStored = (source: Extract<DiffSource, { kind: 'stored' }>) => Workflow;

/** Each side in order, so an error names A before B. */
async function loadAll(sources: readonly DiffSource[], loadStored?: LoadStored): Promise<Workflow[]> {
  const out: Workflow[] = [];
  for (const s of sources) {
    if (s.kind === 'file') out.push(await loadFileSide(s));
    else if (loadStored !== undefined) out.push(loadStored(s));
  }
  return out;
}

/**
 * Layout is compared between two files, and with a stored version only when both sides have one
 * (a version that ran keeps no layout unless it was saved from the app too).
 */
function compare([a, b]: Workflow[], io: CliIo, json: boolean, filesOnly: boolean): number {
  if (a === undefined || b === undefined) throw new Error('weft diff: a side was not loaded');
  const withLayout = filesOnly || (a.layout !== undefined && b.layout !== undefined);
  const diff = withLayout ? diffWorkflows(a, b) : diffWorkflows(withoutLayout(a), withoutLayout(b));
  io.stdout.write(json ? `${JSON.stringify(diff)}\n` : `${diffSummaryLines(diff).join('\n')}\n`);
  return isSameWorkflow(diff) ? EXIT_OK : EXIT_FAILED;
}

function withoutLayout(w: Workflow): Workflow {
  const { layout: _layout, ...rest } = w;
  return rest;
}
