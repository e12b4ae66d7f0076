// Reading through artifact references (docs/long-running.md): expressions see a referenced value
// as if it were inline, and the engine loads it only when an expression reaches it. A step that
// declares `readsSensitive` reads sensitive values too; any other reader sees a sensitive value's
// reference, the redaction marker, never the value.
import { isArtifactRef, type ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import type { ArtifactStore } from './artifact-store.ts';

/** How a reader reads through references. */
export interface ReadThrough {
  store: ArtifactStore;
  /** Whether sensitive values are read (the reading step declares `readsSensitive`). */
  sensitive: boolean;
  /** Filled with each reference read, in order (the attempt's input is recorded by what it read). */
  read?: ArtifactRef[];
}

// Whether an object holds a reference anywhere inside. Values in a run model are not changed once
// folded (a settled step's view entry is replaced, not edited), so the answer is kept per object.
const holds = new WeakMap<object, boolean>();

function holdsRef(v: object): boolean {
  let h = holds.get(v);
  if (h === undefined) {
    if (isArtifactRef(v)) h = true;
    else if (Array.isArray(v)) h = v.some((x) => x !== null && typeof x === 'object' && holdsRef(x as object));
    else h = Object.values(v).some((x) => x !== null && typeof x === 'object' && holdsRef(x as object));
    holds.set(v, h);
  }
  return h;
}

/** One reader's loaded values and views, so each artifact is read from disk once per reader. */
interface Reader extends ReadThrough {
  loaded: Map<string, unknown>;
  views: WeakMap<object, object>;
}

const readers = new WeakMap<ReadThrough, Reader>();

function readerOf(r: ReadThrough): Reader {
  let reader = readers.get(r);
  if (reader === undefined) {
    reader = { ...r, loaded: new Map(), views: new WeakMap() };
    readers.set(r, reader);
  }
  return reader;
}

/**
 * `v` as a reader sees it: a reference is its loaded value (a sensitive one only for a reader
 * allowed it), and an object holding references is a view that loads each when it is reached.
 * Anything else is `v` itself, so a run without artifacts pays one lookup per value reached.
 *
 * @example
 * const steps = readThrough(model.view, { store, sensitive: false });
 * await evaluate('steps.fetch.output.items[0]', { steps }); // loads fetch's output from the store
 */
export function readThrough<T>(v: T, r: ReadThrough): T {
  if (v === null || typeof v !== 'object') return v;
  return viewOf(v, readerOf(r)) as T;
}

/**
 * A record whose entries change (a run's view of its steps' outputs gains an entry as each step
 * settles), read through entry by entry: only its entries, which are not changed once made, are
 * looked at once.
 */
export function readThroughEntries<T extends Record<string, unknown>>(record: T, r: ReadThrough): T {
  // The reader (its maps) is made when an entry holding a reference is first reached: a context
  // is made per step and expression, and most runs hold no reference at all.
  let reader: Reader | undefined;
  return new Proxy(record, {
    get(target, key, receiver) {
      const x: unknown = Reflect.get(target, key, receiver);
      return typeof key === 'symbol' || x === null || typeof x !== 'object' || !holdsRef(x) ? x : viewOf(x, (reader ??= readerOf(r)));
    },
  });
}

function viewOf(v: object, r: Reader): unknown {
  if (!holdsRef(v)) return v;
  if (isArtifactRef(v)) {
    if (v.$artifact.sensitive === true && !r.sensitive) return v;
    const sha = v.$artifact.sha256;
    if (!r.loaded.has(sha)) {
      r.loaded.set(sha, r.store.read(v));
      r.read?.push(v);
    }
    const value = r.loaded.get(sha);
    return value !== null && typeof value === 'object' ? viewOf(value, r) : value;
  }
  let view = r.views.get(v);
  if (view === undefined) {
    view = new Proxy(v, {
      get(target, key, receiver) {
        const x: unknown = Reflect.get(target, key, receiver);
        return typeof key === 'symbol' || x === null || typeof x !== 'object' ? x : viewOf(x, r);
      },
    });
    r.views.set(v, view);
  }
  return view;
}

/**
 * `v` with every reference the reader may read replaced by its value, as plain JSON (what an
 * executor is given). A sensitive reference stays a reference for a reader not allowed it.
 *
 * @example
 * resolveAll({ card: sensitiveRef }, { store, sensitive: true }); // { card: '4111 …' }
 */
export function resolveAll(v: unknown, r: ReadThrough): unknown {
  if (v === null || typeof v !== 'object' || !holdsRef(v)) return v;
  return JSON.parse(JSON.stringify(readThrough(v, r))) as unknown;
}
