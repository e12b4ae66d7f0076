// `weft gc [--grace DURATION] [--dry-run] [--store URL|PATH | --db PATH] [--json]`: removes the
// artifacts no run of the store references, once older than the grace period (docs/long-running.md,
// "Retention"). Reads the store read-only, so it runs beside `weft serve` or the app; what an
// engine is about to reference is never removed (engine/artifacts/artifact-gc.ts says how).
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { storeFlagsHelp, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';
import { DEFAULT_GC_GRACE_MS, MIN_GC_GRACE_MS, type GcReport } from '../../artifacts/artifact-gc.ts';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `15m`, `12h`, `7d` → milliseconds; undefined for anything else. */
export function parseGrace(text: string): number | undefined {
  const m = /^(\d+)([smhd])$/.exec(text.trim());
  return m === null ? undefined : Number(m[1]) * (UNITS[m[2] as string] as number);
}

export const gcCommand: Command = {
  name: 'gc',
  summary: 'remove stored artifacts no run references, after a grace period',
  usage: 'weft gc [--grace DURATION] [--dry-run] [--store URL|PATH | --db PATH] [--json]',
  help: `Removes from the store folder's artifacts/ every artifact (a large output or a sensitive
value kept by reference) that no event of any run references and that has not been written or used
for the grace period. An artifact a run references is never removed. Safe to run while weft serve,
the app or other weft commands run on the store: what an engine has just written or used again is
young, and kept.

  --grace DURATION  how long an unreferenced artifact is kept: 90s, 15m, 12h, 7d (default 1d,
                    at least 1m)
  --dry-run         only list what would be removed
${storeFlagsHelp(20)}
  --json            print {"dryRun","graceMs","artifacts","referenced","young",
                    "removed":[{"sha256","size"}],"bytes"}

Exit status: 0 done (also when nothing was removed); 2 for a usage error or an unreadable store.`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { store: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' }, grace: { type: 'string' }, 'dry-run': { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError(`weft gc takes no arguments (got "${positionals[0] ?? ''}")`);
    const graceMs = values.grace === undefined ? DEFAULT_GC_GRACE_MS : parseGrace(values.grace);
    if (graceMs === undefined) throw new UsageError(`--grace "${values.grace ?? ''}" is not a duration: give a number and a unit, e.g. 90s, 15m, 12h or 7d`);
    if (graceMs < MIN_GC_GRACE_MS) throw new UsageError(`--grace ${values.grace ?? ''} is under a minute: an artifact is written a moment before the event that references it commits, so gc keeps every artifact at least 1m`);
    const db = storePath(values, io.cwd);
    return withUserErrors('gc', io, async () => {
      const [{ openReadOnlyStore }, { collectArtifacts }, { ServiceError }] = await Promise.all([
        import('../../service/read-only-store.ts'),
        import('../../artifacts/artifact-gc.ts'),
        import('../../service/service-error.ts'),
      ]);
      const { store, kind, name, artifactsDir, close } = await openReadOnlyStore(db);
      let report: GcReport;
      try {
        // A PostgreSQL store's folder may hold other stores' artifacts too (another schema's, a
        // SQLite store's beside .weft/weft.db), which this store cannot say are in use.
        if (kind === 'postgres') throw new ServiceError('refused', `the artifacts of a PostgreSQL store are not collected yet (${name}): their folder ${artifactsDir} may also hold other stores' artifacts, which it cannot see; nothing was removed`);
        report = collectArtifacts({ dir: artifactsDir, graceMs, now: Date.now, dryRun: values['dry-run'] === true, referenced: () => store.referencedArtifacts() });
      } finally {
        close();
      }
      io.stdout.write(values.json === true ? `${JSON.stringify(report)}\n` : formatReport(report));
      return EXIT_OK;
    });
  },
};

function formatReport(r: GcReport): string {
  const verb = r.dryRun ? 'would remove' : 'removed';
  const lines = [`${r.artifacts} artifact${r.artifacts === 1 ? '' : 's'}: ${r.referenced} referenced by runs, ${r.young} unreferenced but within the grace period; ${verb} ${r.removed.length} (${r.bytes} bytes)`];
  for (const x of r.removed.slice(0, 50)) lines.push(`  ${x.sha256}  ${x.size} bytes`);
  if (r.removed.length > 50) lines.push(`  … and ${r.removed.length - 50} more (--json lists all)`);
  return `${lines.join('\n')}\n`;
}
