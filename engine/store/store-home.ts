// The folder a store's side files live in: the artifacts folder (values kept by reference) and
// serve.json (the endpoint of the `weft serve` that owns the store). A SQLite store keeps them
// beside its file; a PostgreSQL store has no file, so they are in the workspace's .weft/ folder,
// as a SQLite store in its default place has them (docs/postgres.md): each machine keeps its own.
import { dirname, join } from 'node:path';
import type { StoreLocator } from './store-locator.ts';

/**
 * The folder of the store's side files: the store file's folder, or `<workspace>/.weft` for PostgreSQL.
 * @example storeHome({ kind: 'sqlite', path: '/ws/.weft/weft.db' }, '/ws') // '/ws/.weft'
 * @example storeHome({ kind: 'postgres', url: 'postgres://weft@db/weft' }, '/ws') // '/ws/.weft'
 */
export function storeHome(where: StoreLocator, workspace: string): string {
  return where.kind === 'sqlite' ? dirname(where.path) : join(workspace, '.weft');
}

/** The artifacts folder of the store (artifact-store.ts's layout under it). */
export function storeArtifactsDir(where: StoreLocator, workspace: string): string {
  return join(storeHome(where, workspace), 'artifacts');
}
