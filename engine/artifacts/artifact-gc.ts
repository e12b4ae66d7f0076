// `weft gc`: removes the artifacts no run references once they are older than the grace period
// (docs/long-running.md, "Retention"), and never one a run references. Safe while engines write:
//
// - The folder is listed first, the references read after (one snapshot of the log), so every
//   reference committed before the listing is seen.
// - An artifact is written moments before the event that references it commits, and an engine
//   that uses an existing artifact again touches it first (artifact-store.ts): within the grace
//   period every file an engine is about to reference looks young, and is kept.
// - A candidate is moved aside before it is removed, and its time looked at again there: an
//   engine that touched it meanwhile made it young (it is put back); one that touches it after the
//   move finds no file and writes it anew. So no file an engine relies on is ever removed.
import { randomUUID } from 'node:crypto';
import { linkSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { artifactFile } from './artifact-store.ts';

/** The default grace period: one day. */
export const DEFAULT_GC_GRACE_MS = 24 * 60 * 60 * 1000;
/** The shortest grace period gc takes: a minute, well over the moment between an artifact's write and its event's commit. */
export const MIN_GC_GRACE_MS = 60 * 1000;

export interface GcOptions {
  /** The artifacts folder (artifactsDirOf(dbPath)). */
  dir: string;
  graceMs: number;
  now: () => number;
  /** Only say what would be removed. */
  dryRun: boolean;
  /** The sha256 of every artifact a run references, read after the folder is listed. */
  referenced: () => Set<string>;
}

/** What `weft gc --json` prints. */
export interface GcReport {
  dryRun: boolean;
  graceMs: number;
  /** Artifacts found in the folder. */
  artifacts: number;
  /** Of them, referenced by a run. */
  referenced: number;
  /** Unreferenced, but within the grace period. */
  young: number;
  /** Removed (or, with dryRun, that would be). */
  removed: { sha256: string; size: number }[];
  bytes: number;
}

const SHA = /^[0-9a-f]{64}$/;

interface Found {
  sha256: string;
  mtimeMs: number;
  size: number;
}

/** Every artifact file under `dir`, and the stale temporary files of writes that never finished. */
function listArtifacts(dir: string, staleBefore: number): Found[] {
  const out: Found[] = [];
  let shards: string[];
  try {
    shards = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw e;
  }
  for (const shard of shards) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const name of readdirSync(join(dir, shard))) {
      const st = statSync(join(dir, shard, name), { throwIfNoEntry: false });
      if (st === undefined || !st.isFile()) continue;
      if (SHA.test(name) && name.startsWith(shard)) out.push({ sha256: name, mtimeMs: st.mtimeMs, size: st.size });
      else if (name.startsWith('.') && name.endsWith('.tmp') && st.mtimeMs < staleBefore) rmSync(join(dir, shard, name), { force: true });
    }
  }
  return out;
}

/**
 * Removes the unreferenced artifacts older than the grace period.
 *
 * @example
 * collectArtifacts({ dir, graceMs: DEFAULT_GC_GRACE_MS, now: Date.now, dryRun: false, referenced: () => store.referencedArtifacts() });
 */
export function collectArtifacts(o: GcOptions): GcReport {
  const oldBefore = o.now() - o.graceMs;
  const found = listArtifacts(o.dir, o.dryRun ? -Infinity : oldBefore);
  const referenced = o.referenced();
  const report: GcReport = { dryRun: o.dryRun, graceMs: o.graceMs, artifacts: found.length, referenced: 0, young: 0, removed: [], bytes: 0 };
  for (const f of found) {
    if (referenced.has(f.sha256)) report.referenced++;
    else if (f.mtimeMs >= oldBefore) report.young++;
    else if (o.dryRun || removeIfStillOld(o.dir, f.sha256, oldBefore)) {
      report.removed.push({ sha256: f.sha256, size: f.size });
      report.bytes += f.size;
    } else report.young++;
  }
  return report;
}

/** Moves the file aside, looks at its time there, and removes it only if it is still old; else puts it back. */
function removeIfStillOld(dir: string, sha256: string, oldBefore: number): boolean {
  const file = artifactFile(dir, sha256);
  const aside = join(dir, sha256.slice(0, 2), `.gc-${sha256}-${randomUUID()}`);
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  const st = statSync(aside, { throwIfNoEntry: false });
  if (st !== undefined && st.mtimeMs < oldBefore) {
    rmSync(aside, { force: true });
    return true;
  }
  // Touched meanwhile: an engine uses it. Back in place, unless it was written anew there (same bytes).
  try {
    linkSync(aside, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  rmSync(aside, { force: true });
  return false;
}
