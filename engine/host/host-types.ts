// What a front end (a command of the CLI, `weft serve`, `weft worker`) is given when it opens an
// engine session on a store (engine-host.ts on SQLite, shared-session.ts on PostgreSQL), and the
// options it opens one with. Types only, so both hosts share them without importing each other.
import type { ServeEndpoint } from '../../shared/api/serve-endpoint.ts';
import type { Engine } from '../runtime/engine.ts';
import type { EngineService } from '../service/engine-service.ts';
import type { StorePhase } from '../store/store-failure.ts';
import type { WorkerRole, WorkerRow } from '../store/pg/pg-coordination.ts';
import type { Store } from '../store/store.ts';

/** `create` makes the store if there is none (weft run, weft serve); `write` needs one there already. */
export type SessionMode = 'create' | 'write';

/** How a front end differs in owning a store; a command of the CLI takes the defaults. */
export interface HostOptions {
  /** How long to wait for a live owner to give the store back ($WEFT_LEASE_WAIT_MS, else 10 s). */
  leaseWaitMs?: number;
  /** What to do, added to the refusal when a live engine holds the store. */
  lockedHint?: string;
  /** Hears the store failure that stopped the engine, when it happens; close() then does not throw it again. */
  onFatal?: (error: unknown) => void;
  /**
   * Whether close() first waits for the attempts the engine started (a command: true, the
   * default) or aborts them, recorded as at any engine stop, for the next engine (a server).
   */
  drain?: boolean;
  /**
   * On a PostgreSQL store (docs/scale-out.md): what this engine is among the store's engines
   * (`command` unless given), and what it does besides acting on the runs it is given.
   */
  shared?: SharedOptions;
}

/** How an engine on a PostgreSQL store shares it (engine/host/shared-session.ts). */
export interface SharedOptions {
  role?: WorkerRole;
  /** Claims released runs and dead workers' runs and drives them (`weft worker`, `weft serve`). */
  claim?: boolean;
  /** Claims no more while it holds this many runs (`weft worker --max-runs`); no bound unless given. */
  maxRuns?: number;
  /** Starts no attempt: hands every run it writes to the workers (`weft serve --no-worker`). */
  intake?: boolean;
  /** How long after its last heartbeat this engine counts as dead (WEFT_LEASE_TTL_MS, else 5 s). */
  ttlMs?: number;
  /** The workspace whose .weft/artifacts keeps values by reference unless $WEFT_ARTIFACTS_DIR is set (the current folder unless given). */
  workspace?: string;
  /** Hears what the engine says of its runs and lease (a line each). */
  log?: (line: string) => void;
}

/** The EngineService a front end wants over the session's engine. */
export interface ServiceOptions {
  /** The folder its workflow files are found in. */
  workspace: string;
  /** Who acts when a command names nobody; engine/service/who-acts.ts's default unless given. */
  actor?: string;
  /** The workflow templates of a new workflow; Weft's examples/ unless given. */
  templatesDir?: string;
}

export interface EngineSession {
  store: Store;
  engine: Engine;
  /**
   * What a store failure means for what to do next: `start` while a command that creates runs
   * (weft run) has committed nothing (its run is not in the store: run the command again), else
   * `run` (`weft resume` continues from what was committed).
   */
  failurePhase(): StorePhase;
  /** An EngineService over this engine, with the session's environment. */
  service(o: ServiceOptions): EngineService;
  /** Writes serve.json beside the store (this process's pid added); close() removes it. Answers its path. */
  publishEndpoint(endpoint: Omit<ServeEndpoint, 'pid'>): string;
  /** Removes the serve.json this session wrote, if any (a server does it before it stops listening). */
  withdrawEndpoint(): void;
  /**
   * Waits for the attempts the engine started (unless `drain` is false; starting no new ones),
   * writes what is pending and gives the store back. Throws the store failure that stopped the
   * engine, if one did (and no onFatal heard it), or one met while closing. A second call does nothing.
   */
  close(): Promise<void>;
  /** On a PostgreSQL store: this engine's id among the store's workers, and the live ones. */
  shared?: { readonly workerId: string; workers(): WorkerRow[] };
}

