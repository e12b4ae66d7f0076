// The artifact store (docs/long-running.md, "Large and sensitive data by reference"): values kept
// outside the event log, content-addressed by the sha256 of their JSON bytes, each written once.
// On disk beside the store file: `<dir of weft.db>/artifacts/<sha[0..2]>/<sha>`. A write goes to a
// temporary file that is renamed into place, so no reader ever sees half a file; a file already
// there is not rewritten, only touched (its time is what `weft gc` reads: an artifact a run has
// just used again is never old). A read checks the bytes against the hash: a changed or truncated
// file is a clear error, never a value served.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ARTIFACT_MEDIA_TYPE, type ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import { StoreError } from '../store/store-error.ts';

/** Where values by reference are kept and read back. */
export interface ArtifactStore {
  /** Stores `value` (as its JSON text) unless it is there already; returns its reference. */
  put(value: unknown, sensitive: boolean): ArtifactRef;
  /** The value a reference names, checked against its hash; throws a StoreError when it is missing or damaged. */
  read(ref: ArtifactRef): unknown;
}

/** The artifacts folder of the store at `dbPath`. */
export function artifactsDirOf(dbPath: string): string {
  return join(dirname(dbPath), 'artifacts');
}

/** The file of an artifact under `dir`. */
export function artifactFile(dir: string, sha256: string): string {
  return join(dir, sha256.slice(0, 2), sha256);
}

/** The JSON bytes of a value and their reference. */
function encode(value: unknown, sensitive: boolean): { bytes: Buffer; ref: ArtifactRef } {
  const bytes = Buffer.from(JSON.stringify(value ?? null), 'utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, ref: { $artifact: { sha256, size: bytes.length, mediaType: ARTIFACT_MEDIA_TYPE, ...(sensitive ? { sensitive: true as const } : {}) } } };
}

/** Parses checked bytes, or says the artifact is damaged. */
function decode(bytes: Buffer, ref: ArtifactRef, where: string): unknown {
  const { sha256, size } = ref.$artifact;
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== sha256 || bytes.length !== size) {
    throw new StoreError('damaged', `artifact ${sha256} at ${where} is damaged: its bytes (${bytes.length}, sha256 ${got.slice(0, 12)}…) are not the ones stored (${size}, sha256 ${sha256.slice(0, 12)}…); restore it from a backup of the store folder`);
  }
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (e) {
    throw new StoreError('damaged', `artifact ${sha256} at ${where} is not JSON: ${(e as Error).message}`);
  }
}

/**
 * Artifacts as files in a folder.
 *
 * @example
 * const artifacts = new FileArtifactStore(artifactsDirOf('/ws/.weft/weft.db'));
 * const ref = artifacts.put({ rows: big }, false);
 * artifacts.read(ref); // { rows: big }
 */
export class FileArtifactStore implements ArtifactStore {
  constructor(readonly dir: string) {}

  put(value: unknown, sensitive: boolean): ArtifactRef {
    const { bytes, ref } = encode(value, sensitive);
    const file = artifactFile(this.dir, ref.$artifact.sha256);
    try {
      // Written once: an artifact already there keeps its bytes, and its time says it is in use
      // again (weft gc keeps what changed within its grace period).
      const now = new Date();
      utimesSync(file, now, now);
      return ref;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StoreError('io', `cannot use artifact ${file}: ${(e as Error).message}`);
    }
    const temp = join(dirname(file), `.${ref.$artifact.sha256}.${randomUUID()}.tmp`);
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // The owner's alone, as the store file: artifacts hold run data, sensitive values included.
      writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
      renameSync(temp, file);
    } catch (e) {
      rmSync(temp, { force: true });
      throw new StoreError('io', `cannot write artifact ${file}: ${(e as Error).message}`);
    }
    return ref;
  }

  read(ref: ArtifactRef): unknown {
    const file = artifactFile(this.dir, ref.$artifact.sha256);
    let bytes: Buffer;
    try {
      bytes = readAside(file, ref.$artifact.sha256) ?? readFileSync(file);
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      throw new StoreError(missing ? 'damaged' : 'io', missing ? `artifact ${ref.$artifact.sha256} is missing (${file}); restore the store folder's artifacts/ from a backup` : `cannot read artifact ${file}: ${(e as Error).message}`);
    }
    return decode(bytes, ref, file);
  }
}

/**
 * The bytes of an artifact `weft gc` has just moved aside to look at (artifact-gc.ts), for the
 * moment before it puts it back: read from there (the hash check still applies). Undefined when the
 * file is in place, or gone.
 */
function readAside(file: string, sha256: string): Buffer | undefined {
  if (existsSync(file)) return undefined;
  const shard = dirname(file);
  let names: string[];
  try {
    names = readdirSync(shard);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.startsWith(`.gc-${sha256}-`)) continue;
    try {
      return readFileSync(join(shard, name));
    } catch {
      // removed meanwhile: it was old and unreferenced after all
    }
  }
  return undefined;
}

/** Artifacts in memory, for an in-memory store (scenarios without a store file, replays). */
export class MemoryArtifactStore implements ArtifactStore {
  private readonly files = new Map<string, Buffer>();

  put(value: unknown, sensitive: boolean): ArtifactRef {
    const { bytes, ref } = encode(value, sensitive);
    if (!this.files.has(ref.$artifact.sha256)) this.files.set(ref.$artifact.sha256, bytes);
    return ref;
  }

  read(ref: ArtifactRef): unknown {
    const bytes = this.files.get(ref.$artifact.sha256);
    if (bytes === undefined) throw new StoreError('damaged', `artifact ${ref.$artifact.sha256} is not in this in-memory store`);
    return decode(bytes, ref, 'memory');
  }
}
