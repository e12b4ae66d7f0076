// What a front end (the CLI) may know of a store's name without reaching into engine/store: whether
// the text names a PostgreSQL store, and how to name it in a message (without a URL's password).
import { describeStore, storeLocator } from '../store/store-locator.ts';

export { isPgStoreText } from '../store/store-text.ts';

/**
 * The store `text` names, for messages: a file's absolute path, or a database without its password.
 * @example describeStoreText('postgres://weft:pw@db/weft', '/ws') // 'postgres://weft@db/weft' (as describePgUrl writes it)
 */
export function describeStoreText(text: string, cwd: string): string {
  return describeStore(storeLocator(text, cwd));
}
