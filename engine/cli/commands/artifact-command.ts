// `weft artifact open RUN PATH [--by NAME] [--store URL|PATH | --db PATH] [--json]`: prints a value
// a run keeps by reference in the artifact store (docs/long-running.md). Opening a sensitive value
// is recorded in the run's log (artifact_opened, with who) before it is printed. While a `weft
// serve` owns the store, the server opens it (POST /api/runs/:id/artifact,
// engine/cli/store-owner.ts): it drives the run and alone appends to its log, and its service
// checks the workspace policy's openers, once, as it does here when no server runs.
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { postOnStore } from '../engine-session.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { actor } from '../operator.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';

export const artifactCommand: Command = {
  name: 'artifact',
  summary: 'open a value a run keeps by reference (a large output, or a sensitive field: recorded)',
  usage: 'weft artifact open RUN PATH [--by NAME] [--store URL|PATH | --db PATH] [--json]',
  help: `Prints the value stored under the artifact reference at PATH in RUN, as JSON. PATH is a
value path as weft inspect --json and the app show it, e.g.
steps.lookup.attempts[0].output.iban (docs/api.md, "Value paths"); it may go on inside a large
value kept by reference. The stored bytes are checked against their sha256: a damaged artifact is
an error, never printed.

A sensitive value (a field its step's output schema marks "x-weft-sensitive") is opened on
record: the run's log gets an artifact_opened event naming who (--by, default $WEFT_USER or the
OS user) and the path; the value itself never enters the log. When the workspace policy has a
"sensitive" section, only its openers may open one (docs/policies.md, "Who opens sensitive
values"): anyone else is refused and nothing is recorded. While a weft serve owns the store, the
server opens it, as it records and refuses here. See docs/long-running.md.

  --by NAME   who opens it (recorded for a sensitive value)
${storeFlagsHelp(14)}
  --json      print {"runId","path","artifact":{"sha256","size","mediaType","sensitive"?},"value","recorded"}

Exit status: 0 opened; 2 for a usage error, an unknown run, a path that names no reference, a
missing or damaged artifact, or an opening the workspace policy refuses.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, by: { type: 'string' } });
    const [verb, run, path, ...extra] = positionals;
    if (verb !== 'open') throw new UsageError(verb === undefined ? 'give what to do: weft artifact open RUN PATH' : `unknown artifact action "${verb}"; the one action is open: weft artifact open RUN PATH`);
    if (run === undefined || path === undefined || extra.length > 0) throw new UsageError('give a run and the value path of a reference: weft artifact open RUN PATH');
    const db = storePath(values, io.cwd);
    return withUserErrors('artifact', io, async () => {
      const [{ OpenedArtifact }, { MAX_ID_LENGTH }] = await Promise.all([import('../../../shared/api/artifact-open.ts'), import('../../../shared/api/api-ids.ts')]);
      const open = { path, by: actor(values.by) };
      // The route takes a run id of at most MAX_ID_LENGTH; a longer RUN names no run, which the
      // store says as it says it here (the same message, unknown-run, either way).
      const route = async () => ({ path: `/api/runs/${encodeURIComponent(run.length > MAX_ID_LENGTH ? await resolveLong(db, run) : run)}/artifact` as const, body: open });
      const opened = await postOnStore(db, 'artifact', io, route, OpenedArtifact, (service) => service.openArtifact(run, open));
      io.stdout.write(values.json === true ? `${JSON.stringify(opened)}\n` : `${JSON.stringify(opened.value, null, 2)}\n`);
      return EXIT_OK;
    });
  },
};

/** The run a reference longer than any run id names, read from the store: its unknown-run error, as a rule. */
async function resolveLong(db: string, run: string): Promise<string> {
  const { withRunReader } = await import('../../service/read-only-store.ts');
  return withRunReader(db, (reader) => reader.resolveRunId(run));
}
