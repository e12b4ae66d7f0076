// Connections to a PostgreSQL store (issue 25): a node-postgres Pool set up the way the store
// needs it, and the words for where a store is. PostgreSQL's int8 (bigint: cursors, times,
// counters) arrives from node-postgres as a string; this pool's clients turn it into a Number and
// refuse one past Number.MAX_SAFE_INTEGER rather than round it; numeric (what sum() and avg() of a
// bigint return) reads as a Number too, refused when not finite or an integer past that. A pool or client whose server goes
// away emits 'error', and an 'error' nobody listens to ends the process: both are handled here and
// passed to a callback. A URL's password never appears in what this file says (describePgUrl).
import pg from 'pg';
import { StoreError } from '../store-error.ts';

/** PostgreSQL's type OIDs of int8 (bigint) and numeric. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * int8 in text form to a Number, exactly, or a clear error.
 * @example parseInt8('42') // 42
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`PostgreSQL returned the bigint ${text}, beyond what Weft reads exactly (${Number.MAX_SAFE_INTEGER}); the store holds a value Weft never writes`);
  }
  return value;
}

/**
 * numeric in text form to a Number (as SQLite gives sum() and avg()), or a clear error for NaN,
 * an infinity, or an integer past 2^53 that a Number would round.
 * @example parseNumeric('12.50') // 12.5
 */
export function parseNumeric(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
    throw new RangeError(`PostgreSQL returned the numeric ${text}, which Weft cannot read exactly as a number (finite, integers up to ${Number.MAX_SAFE_INTEGER})`);
  }
  return value;
}

/** The type parsers of a store's clients: node-postgres's own, but int8 and numeric as checked Numbers. */
const STORE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    if (oid === INT8_OID) return parseInt8;
    if (oid === NUMERIC_OID) return parseNumeric;
    return pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The configuration of one client of a store: its URL, the type parsers above, and the schema as
 * `search_path` when given, plus further `-c name=value` settings.
 * @example new pg.Client(pgClientConfig(url, { schema: 't_1', settings: { application_name: 'weft' } }))
 */
export function pgClientConfig(url: string, o: { schema?: string | undefined; settings?: Readonly<Record<string, string | number>> } = {}): pg.ClientConfig {
  const config: pg.ClientConfig = { connectionString: url, types: STORE_TYPES };
  const settings = Object.entries({ ...(o.schema === undefined ? {} : { search_path: quoteIdent(o.schema) }), ...o.settings });
  // PostgreSQL splits `options` at spaces; a backslash keeps one in a value.
  if (settings.length > 0) config.options = settings.map(([name, value]) => `-c ${name}=${String(value).replace(/[\\ ]/g, '\\$&')}`).join(' ');
  return config;
}

export interface PgPoolOptions {
  /** Told of an error of an idle client or of the pool (the server went away); the next query reconnects. */
  onError?: (error: Error) => void;
  /** The schema the store's tables are in (`search_path`); the user's default unless given. Tests give each a schema of its own. */
  schema?: string;
  /** Most connections at once; node-postgres's default (10) unless given. */
  max?: number;
}

/**
 * A Pool on `url` whose clients parse int8 to Number and never end the process with an unhandled
 * 'error'. Connects lazily: an unreachable server shows at the first query (see pgFailure).
 * @example
 * const pool = openPgPool('postgres://weft@%2Ftmp%2Fpg/weft', { onError: (e) => log(e.message) });
 * const { rows } = await pool.query('SELECT count(*) AS n FROM events'); // rows[0].n is a number
 */
export function openPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const onError = options.onError ?? ((): void => undefined);
  const config: pg.PoolConfig = pgClientConfig(url, { schema: options.schema });
  if (options.max !== undefined) config.max = options.max;
  let pool: pg.Pool;
  try {
    pool = new pg.Pool(config);
  } catch (e) {
    throw pgFailure(e, url, 'open');
  }
  // An idle client's error reaches the pool's 'error'; a checked-out client's reaches the client,
  // whose query also rejects: listen on both so neither is unhandled.
  pool.on('error', (e) => onError(e));
  pool.on('connect', (client) => client.on('error', (e) => onError(e)));
  return pool;
}

/**
 * openPgPool, then one round trip to prove the store is reachable: an unreachable server, a
 * missing database or a refused login is a StoreError naming the place (without the password)
 * now, rather than at the first read. The pool is closed again on failure.
 * @example const pool = await connectPg(url, { onError: (e) => log(e.message) });
 */
export async function connectPg(url: string, options: PgPoolOptions = {}): Promise<pg.Pool> {
  const pool = openPgPool(url, options);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw pgFailure(e, url, 'connect to');
  }
}

/** A PostgreSQL identifier, double-quoted (a schema name from a test or a flag). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Where a PostgreSQL URL points, for messages: the database, the host or socket folder and the
 * port, and the user, never the password. A URL that cannot be read is not repeated (it may hold one).
 * @example describePgUrl('postgres://weft:secret@db.example:5433/prod') // 'PostgreSQL database "prod" on db.example:5433 as weft'
 * @example describePgUrl('postgres://weft@%2Ftmp%2Fpg/weft_test') // 'PostgreSQL database "weft_test" on the socket in /tmp/pg (port 5432) as weft'
 */
export function describePgUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'a PostgreSQL URL that cannot be read (expected postgres://user@host:port/database)';
  }
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const user = decode(parsed.searchParams.get('user') ?? parsed.username);
  const host = parsed.searchParams.get('host') ?? decode(parsed.hostname);
  const port = parsed.port === '' ? (parsed.searchParams.get('port') ?? '5432') : parsed.port;
  const database = decode(parsed.pathname.replace(/^\//, '')) || user || '(default)';
  const place = host.startsWith('/') ? `the socket in ${host} (port ${port})` : `${host === '' ? 'localhost' : host}:${port}`;
  return `PostgreSQL database "${database}" on ${place}${user === '' ? '' : ` as ${user}`}`;
}

/** The password of a URL, to scrub from a driver's message (the driver is not trusted to leave it out). */
function passwordOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const password = parsed.searchParams.get('password') ?? decodeURIComponent(parsed.password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

/**
 * `text` without the password of `url` (plain or percent-encoded) and without the URL itself.
 * @example scrubPgUrl('bad password s3cret', 'postgres://u:s3cret@h/db') // 'bad password ***'
 */
export function scrubPgUrl(text: string, url: string): string {
  const password = passwordOf(url);
  let said = text;
  if (password !== undefined) said = said.replaceAll(password, '***').replaceAll(encodeURIComponent(password), '***');
  if (url !== '' && said.includes(url)) said = said.replaceAll(url, '(the URL)');
  return said;
}

/**
 * A StoreError for a failure talking to the store at `url`: what was being done, where (without the
 * password) and what the driver said, with the password scrubbed from that too.
 * @example throw pgFailure(e, url, 'connect'); // cannot connect to PostgreSQL database "x" on 127.0.0.1:5432: connect ECONNREFUSED ...
 */
export function pgFailure(error: unknown, url: string, doing: string): StoreError {
  let said = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && said === '' && 'code' in error) said = String(error.code);
  said = scrubPgUrl(said, url);
  const unreachable = /ECONNREFUSED|ENOENT|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|does not exist|authentication failed/.test(said);
  const hint = unreachable ? '; check that PostgreSQL is running there and that the URL (--store or WEFT_STORE) names the right host, port, database and user' : '';
  return new StoreError('io', `cannot ${doing} ${describePgUrl(url)}: ${said}${hint}`);
}
