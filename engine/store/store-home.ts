// The folder a store's side files live in: the artifacts folder (values kept by reference) and
// serve.json (the endpoint of the `weft serve` that owns the store). A SQLite store keeps them
// beside its file; a PostgreSQL store has no file, so they are in the workspace's .weft/ folder,
// as a SQLite store in its default place has them (docs/postgres.md), the artifacts unless
// $WEFT_ARTIFACTS_DIR names a folder the engines share.
import { dirname, join, resolve } from 'node:path';
import type { StoreLocator } from './store-locator.ts';

/**
 * The folder of the store's side files: the store file's folder, or `<workspace>/.weft` for PostgreSQL.
 * @example storeHome({ kind: 'sqlite', path: '/ws/.weft/weft.db' }, '/ws') // '/ws/.weft'
 * @example storeHome({ kind: 'postgres', url: 'postgres://weft@db/weft' }, '/ws') // '/ws/.weft'
 */
export function storeHome(where: StoreLocator, workspace: string): string {
  return where.kind === 'sqlite' ? dirname(where.path) : join(workspace, '.weft');
}

/**
 * The artifacts folder of the store (artifact-store.ts's layout under it): beside a SQLite file;
 * for PostgreSQL $WEFT_ARTIFACTS_DIR when set (a folder the engines of several machines share,
 * as engine/host/shared-session.ts writes there), else `<workspace>/.weft/artifacts`.
 */
export function storeArtifactsDir(where: StoreLocator, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  const shared = env['WEFT_ARTIFACTS_DIR'];
  if (where.kind === 'postgres' && shared !== undefined && shared !== '') return resolve(shared);
  return join(storeHome(where, workspace), 'artifacts');
}
