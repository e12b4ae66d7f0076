// The engine every host builds over its store, and the EngineService it gives a front end: one
// place for the executors, workspace trust, prices and artifacts an engine runs with, whichever
// store it is on (engine-host.ts, shared-session.ts).
import { FileArtifactStore } from '../artifacts/artifact-store.ts';
import { artifactThreshold } from '../artifacts/artifact-threshold.ts';
import type { Engine } from '../runtime/engine.ts';
import type { SharedStore } from '../runtime/live-run.ts';
import { EngineService } from '../service/engine-service.ts';
import { trustCheck } from '../service/workspace-trust.ts';
import { workspacePrices } from '../cost/load-prices.ts';
import type { Store } from '../store/store.ts';
import { systemClock, systemRandom } from '../time/clock.ts';
import type { ServiceOptions } from './host-types.ts';

/**
 * The engine every host builds over its store: the default executors, the workspace's trust and
 * prices, artifacts kept in `artifactsDir`; `shared` when other engines share the store.
 */
export async function buildEngine(store: Store, env: NodeJS.ProcessEnv, artifactsDir: string, onFatal: (e: unknown) => void, shared?: SharedStore): Promise<Engine> {
  const [{ Engine }, { defaultExecutors }] = await Promise.all([import('../runtime/engine.ts'), import('../executors/default-executors.ts')]);
  return new Engine({
    store,
    clock: systemClock,
    random: systemRandom,
    executors: defaultExecutors(),
    onFatal,
    workspaceTrust: trustCheck(env),
    prices: workspacePrices().of,
    artifacts: new FileArtifactStore(artifactsDir),
    ...artifactThreshold(env),
    ...(shared === undefined ? {} : { shared }),
  });
}

/** The EngineService a session gives a front end (`s` as EngineSession.service takes it). */
export function sessionService(store: Store, engine: Engine, env: NodeJS.ProcessEnv, s: ServiceOptions): EngineService {
  return new EngineService(store, engine, s.workspace, env, { ...(s.actor === undefined ? {} : { actor: s.actor }), ...(s.templatesDir === undefined ? {} : { templatesDir: s.templatesDir }) });
}


/**
 * A session's close on either store: waits for the running attempts (unless `drain` is false or
 * the engine failed), stops the engine, writes what is pending, gives the store back (`giveBack`:
 * the lease, or the shared store's runs) and closes the connection. Answers the failure the
 * front end has not heard yet (none when it heard it through onFatal), for it to throw.
 */
export async function closeEngine(engine: Engine, o: { drain: boolean; fatal: () => unknown; heard: boolean; giveBack: () => void; closeDb: () => void }): Promise<unknown> {
  if (o.fatal() === undefined && o.drain) await engine.drain();
  engine.close();
  const fatal = o.fatal();
  let failure = fatal;
  try {
    if (fatal === undefined) engine.flush();
    o.giveBack();
  } catch (e) {
    failure ??= e;
  } finally {
    o.closeDb();
  }
  // A failure the front end already heard (onFatal) is not its stop's failure too.
  return failure === fatal && o.heard ? undefined : failure;
}
