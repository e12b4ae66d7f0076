// Whether a store as a front end is given it (the text storePath chose: a SQLite file's absolute
// path or a PostgreSQL URL) names a PostgreSQL database: for the CLI, which reaches the store only
// through engine/service and asks this on every command, before any driver is loaded (so not
// through engine/host/store-names.ts, which loads the store's locator to name a store in messages).
export { isPgStoreText } from '../store/store-text.ts';
