// Whether a store's text names a PostgreSQL database (a `postgres://` or `postgresql://` URL) or a
// SQLite file. Kept apart from store-locator.ts, which opens stores, so the CLI can tell the two
// apart when it picks a command's store without loading a database driver.

const PG_URL = /^postgres(ql)?:\/\//i;

/**
 * Whether `text` is a PostgreSQL URL (else it is a file path).
 * @example isPgUrl('postgresql://weft@db/weft') // true
 * @example isPgUrl('.weft/weft.db') // false
 */
export function isPgUrl(text: string): boolean {
  return PG_URL.test(text);
}
