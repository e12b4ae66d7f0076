// `weft store copy FROM TO [--force] [--json]`: copies a whole store into a new one
// (engine/store/copy-store.ts): every table row for row, the events with their cursors and data
// byte for byte, and the artifacts the runs keep by reference (docs/postgres.md, "Moving a
// store"). The target must be new or hold no runs; a source that a live engine runs is refused
// unless --force. After the copy, the events of both are compared by their digest; runs continue
// in the target where they stopped (an engine that opens it recovers them).
import { cpSync, existsSync } from 'node:fs';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';

export const storeCommand: Command = {
  name: 'store',
  summary: 'copy a whole store into a new one, event for event',
  usage: 'weft store copy FROM TO [--force] [--json]',
  help: `Copies the store FROM into the store TO, which is created (or must hold no runs): every run,
event, projection, rollup, definition, saved version and policy, row for row, and the artifacts
its runs keep by reference. Events keep their cursors and their data byte for byte; the copy
checks that TO's events digest equals FROM's. Runs continue in TO where they stopped in FROM: an
engine that opens TO (weft resume, weft serve) recovers them as after a restart.

FROM and TO are each a store file (SQLite) or a PostgreSQL URL (postgres://user@host:5432/db,
with ?schema=NAME for a schema other than the user's default), so a store moves from SQLite to
PostgreSQL and back (docs/postgres.md). FROM is read in one snapshot, and TO is written in one
transaction: a copy that fails leaves TO without runs. A store whose runs keep artifacts (large
outputs, sensitive values) is not copied to PostgreSQL, which keeps no artifacts yet.

  --force   copy from a store that a live engine is running (what it commits after the copy
            starts is not in the copy); without it such a source is refused
  --json    print {"from","to","tables":{"<table>":rows},"events":{"count","lastCursor","digest"},"artifacts"}

Exit status: 0 copied; 2 for a usage error, a missing or unreadable source, a target that holds
runs, or a source being run (without --force).`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { force: { type: 'boolean' }, json: { type: 'boolean' } });
    const [verb, fromArg, toArg, ...extra] = positionals;
    if (verb !== 'copy') throw new UsageError(verb === undefined ? 'give what to do: weft store copy FROM TO' : `unknown store action "${verb}"; the one action is copy: weft store copy FROM TO`);
    if (fromArg === undefined || toArg === undefined || extra.length > 0) throw new UsageError('give the store to copy and the store to copy it into: weft store copy FROM TO');
    return withUserErrors('store', io, async () => {
      const [{ storeLocator, describeStore, openStoreDb }, { copyStore, eventsDigest }, { artifactsDirOf }, { StoreError }, { storeFailure }, { Store }] = await Promise.all([
        import('../../store/store-locator.ts'),
        import('../../store/copy-store.ts'),
        import('../../artifacts/artifact-store.ts'),
        import('../../store/store-error.ts'),
        import('../../store/store-failure.ts'),
        import('../../store/store.ts'),
      ]);
      const fromAt = storeLocator(fromArg, io.cwd);
      const toAt = storeLocator(toArg, io.cwd);
      const from = describeStore(fromAt);
      const to = describeStore(toAt);
      if (from === to) throw new UsageError(`FROM and TO are the same store (${from}); give a new store to copy into`);
      const source = await openStoreDb(fromAt, 'write');
      try {
        const artifacts = fromAt.kind === 'sqlite' && existsSync(artifactsDirOf(fromAt.path));
        if (artifacts && toAt.kind === 'postgres' && new Store(source).referencedArtifacts().size > 0) {
          throw new StoreError('refused', `the runs of ${from} keep artifacts (large outputs or sensitive values) in ${artifactsDirOf(fromAt.path)}, and a PostgreSQL store keeps no artifacts yet; nothing was copied`);
        }
        const target = await openStoreDb(toAt, 'create');
        try {
          const report = copyStore(source, target, { force: values.force === true });
          const copied = eventsDigest(target);
          if (copied.digest !== report.events.digest || copied.count !== report.events.count) {
            throw new StoreError('io', `the copy's events differ from the source's (${copied.count} events, digest ${copied.digest.slice(0, 12)}, against ${report.events.count}, ${report.events.digest.slice(0, 12)}); do not use ${to}`);
          }
          if (artifacts && fromAt.kind === 'sqlite' && toAt.kind === 'sqlite') cpSync(artifactsDirOf(fromAt.path), artifactsDirOf(toAt.path), { recursive: true, errorOnExist: false, force: false });
          const runs = report.tables['runs'] ?? 0;
          io.stdout.write(values.json === true
            ? `${JSON.stringify({ from, to, ...report, artifacts })}\n`
            : `copied ${runs} run${runs === 1 ? '' : 's'} and ${report.events.count} event${report.events.count === 1 ? '' : 's'} (last cursor ${report.events.lastCursor}) from ${from} to ${to}; the events' digests match (${report.events.digest.slice(0, 12)})${artifacts ? '; artifacts copied' : ''}\n`);
          return EXIT_OK;
        } catch (e) {
          throw (toAt.kind === 'sqlite' ? storeFailure(toAt.path, e, 'run') : undefined) ?? e;
        } finally {
          target.close();
        }
      } finally {
        source.close();
      }
    });
  },
};
