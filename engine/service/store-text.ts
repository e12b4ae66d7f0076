// A store as a front end is given it (the text storePath chose: a SQLite file's absolute path or a
// PostgreSQL URL), for the CLI, which reaches the store only through engine/service: which kind
// it is, and its name in messages. Nothing here loads a database driver until a URL is named.
import { isPgUrl } from '../store/store-kind.ts';

export { isPgUrl };

/**
 * The store as messages name it: its file, or its PostgreSQL database without the password.
 * @example await storeName('postgres://weft:pw@db/weft') // 'PostgreSQL database "weft" on db:5432 as weft'
 */
export async function storeName(text: string): Promise<string> {
  if (!isPgUrl(text)) return text;
  const { describeStore, storeLocator } = await import('../store/store-locator.ts');
  try {
    return describeStore(storeLocator(text, '/'));
  } catch {
    const { describePgUrl } = await import('../store/pg/pg-connection.ts');
    return describePgUrl(text);
  }
}
