// Whether a store named on a command line (or in $WEFT_STORE) is a PostgreSQL database or a
// SQLite file, decided from its text alone, without loading either driver: the CLI and the hosts
// ask before they import anything heavy. store-locator.ts parses the text fully.

/** A `postgres://` or `postgresql://` URL. */
export const PG_URL = /^postgres(ql)?:\/\//i;

/**
 * True when `text` names a PostgreSQL store.
 * @example isPgStoreText('postgres://weft@%2Ftmp/weft') // true
 * @example isPgStoreText('.weft/weft.db') // false
 */
export function isPgStoreText(text: string): boolean {
  return PG_URL.test(text);
}
