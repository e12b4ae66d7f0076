// How a front end (the CLI) names a store in a message without reaching into engine/store: a
// file's path, or a PostgreSQL database without its URL's password (engine/cli/store-path.ts storeName).
import { describeStore, storeLocator } from '../store/store-locator.ts';

/**
 * The store `text` names, for messages: a file's absolute path, or a database without its password.
 * @example describeStoreText('postgres://weft:pw@db/weft', '/ws') // 'postgres://weft@db/weft' (as describePgUrl writes it)
 */
export function describeStoreText(text: string, cwd: string): string {
  return describeStore(storeLocator(text, cwd));
}
