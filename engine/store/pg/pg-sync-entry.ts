// The PostgreSQL thread of a PgSync (pg-sync.ts): one dedicated node-postgres Client that runs the
// batches the engine's thread sends, in order, stopping at the first failure, and a second Client,
// made at the first listen, that holds the LISTENs and passes each notification on as a message.
// After each reply it sets the shared state word and wakes the engine's thread, which is blocked
// in Atomics.wait. A lost connection is made again at the next batch (a new session), and the
// LISTEN connection is made again at once, with every channel listened to again.
import pg from 'pg';
import { parentPort, workerData } from 'node:worker_threads';
import { pgClientConfig, quoteIdent } from './pg-connection.ts';
import { ANSWERED, EXITED, type PgAnswer, type PgStatement, type PgSyncData, type PgSyncEvent, type PgSyncFailure, type PgSyncReply, type PgSyncRequest } from './pg-sync-protocol.ts';

const data = workerData as PgSyncData;
const state = new Int32Array(data.state);
/** PostgreSQL's type OID of bytea: such columns arrive as Buffers, which the engine's thread gets back as Uint8Arrays. */
const BYTEA_OID = 17;
/** A backend whose client is gone stops its statement within this (PostgreSQL 14+ checks the socket while it runs). */
const CHECK_CLIENT_MS = 1000;
/** The LISTEN connection's waits between attempts to make it again: doubling up to this. */
const RELISTEN_MAX_MS = 5000;

function post(event: PgSyncEvent): void {
  parentPort?.postMessage(event);
}

function reply(message: PgSyncReply): void {
  data.port.postMessage(message);
  Atomics.store(state, 0, ANSWERED);
  Atomics.notify(state, 0);
}

// The thread ends (terminated, or an error nobody caught): a waiting engine thread hears it now
// rather than at its timeout.
process.on('exit', () => {
  Atomics.store(state, 0, EXITED);
  Atomics.notify(state, 0);
});

/** A connection and whether it still works (node-postgres says so with 'error' and 'end'). */
interface Connection {
  client: pg.Client;
  broken: boolean;
}

async function connect(name: string): Promise<Connection> {
  const client = new pg.Client({
    ...pgClientConfig(data.url, { schema: data.schema, settings: { application_name: name, client_connection_check_interval: CHECK_CLIENT_MS } }),
    connectionTimeoutMillis: data.connectTimeoutMs,
  });
  const connection: Connection = { client, broken: false };
  // An 'error' nobody listens to would end the thread: the failing query rejects on its own.
  client.on('error', () => (connection.broken = true));
  client.on('end', () => (connection.broken = true));
  try {
    await client.connect();
  } catch (e) {
    connection.broken = true;
    await client.end().catch(() => undefined);
    throw e;
  }
  return connection;
}

let main: Connection | undefined;
let session = 0;

async function mainConnection(): Promise<Connection> {
  if (main !== undefined && !main.broken) return main;
  if (main !== undefined) await main.client.end().catch(() => undefined);
  main = undefined;
  main = await connect('weft');
  session++;
  return main;
}

function failure(e: unknown, index: number, connection: Connection | undefined): PgSyncFailure {
  const error = e instanceof Error ? e : new Error(String(e));
  const working = connection !== undefined && !connection.broken;
  // The server refused the statement; or a value could not be sent or read (a parser's RangeError);
  // else the connection failed.
  const kind = !working ? 'lost' : error instanceof pg.DatabaseError ? 'sql' : error instanceof RangeError || error instanceof TypeError ? 'other' : 'lost';
  const found: PgSyncFailure = { kind, message: error.message, index };
  if ('code' in error && typeof error.code === 'string') found.code = error.code;
  if (error instanceof pg.DatabaseError) {
    if (error.detail !== undefined) found.detail = error.detail;
    if (error.constraint !== undefined) found.constraint = error.constraint;
  }
  return found;
}

async function batch(statements: readonly PgStatement[]): Promise<PgSyncReply> {
  let connection: Connection;
  try {
    connection = await mainConnection();
  } catch (e) {
    // -1: no statement of the batch ran.
    return { ok: false, failure: failure(e, -1, undefined), session };
  }
  const answers: PgAnswer[] = [];
  const bytea: (number[] | undefined)[] = [];
  for (const [index, statement] of statements.entries()) {
    try {
      const query = { text: statement.text, values: statement.values as unknown[] };
      const result: pg.QueryResult | pg.QueryResult[] = await (statement.rowMode === 'array' ? connection.client.query({ ...query, rowMode: 'array' }) : connection.client.query(query));
      // A multi-statement text (simple protocol, no values) gives one result per statement: the last counts.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      const fields: pg.FieldDef[] = last?.fields ?? [];
      answers.push({ rows: last?.rows ?? [], rowCount: last?.rowCount ?? 0, fields: fields.map((f) => f.name) });
      const binary = fields.flatMap((f, k) => (f.dataTypeID === BYTEA_OID ? [k] : []));
      bytea.push(binary.length === 0 ? undefined : binary);
    } catch (e) {
      return { ok: false, failure: failure(e, index, connection), session };
    }
  }
  return { ok: true, answers, session, bytea };
}

// LISTEN: a connection of its own, since the main one is busy in transactions and would hear
// notifications only between statements.
const channels = new Set<string>();
let listener: Connection | undefined;
let relistening: Promise<void> | undefined;

async function listening(): Promise<Connection> {
  if (listener !== undefined && !listener.broken) return listener;
  const made = await connect('weft listen');
  made.client.on('notification', (n) => post({ kind: 'notify', channel: n.channel, payload: n.payload ?? '' }));
  const lost = (): void => {
    if (listener === made) relisten();
  };
  made.client.on('error', lost);
  made.client.on('end', lost);
  for (const channel of channels) await made.client.query(`LISTEN ${quoteIdent(channel)}`);
  listener = made;
  return made;
}

/** Makes the LISTEN connection again after a loss, retrying with a growing wait, then says so. */
function relisten(): void {
  if (relistening !== undefined) return;
  relistening = (async () => {
    for (let wait = 50; ; wait = Math.min(wait * 2, RELISTEN_MAX_MS)) {
      if (channels.size === 0) return;
      try {
        await listening();
        post({ kind: 'relisten', channels: [...channels] });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  })().finally(() => (relistening = undefined));
}

async function listen(channel: string, on: boolean): Promise<PgSyncReply> {
  try {
    if (on) {
      const connection = await listening();
      await connection.client.query(`LISTEN ${quoteIdent(channel)}`);
      channels.add(channel);
    } else {
      channels.delete(channel);
      if (listener !== undefined && !listener.broken) await listener.client.query(`UNLISTEN ${quoteIdent(channel)}`);
    }
    return { ok: true, answers: [], session, bytea: [] };
  } catch (e) {
    return { ok: false, failure: failure(e, 0, listener), session };
  }
}

async function close(): Promise<PgSyncReply> {
  channels.clear();
  await Promise.all([main?.client.end(), listener?.client.end()].map((p) => p?.catch(() => undefined)));
  return { ok: true, answers: [], session, bytea: [] };
}

async function handle(request: PgSyncRequest): Promise<PgSyncReply> {
  switch (request.kind) {
    case 'connect':
      return batch([]);
    case 'batch':
      return batch(request.statements);
    case 'listen':
    case 'unlisten':
      return listen(request.channel, request.kind === 'listen');
    case 'close':
      return close();
  }
}

data.port.on('message', (request: PgSyncRequest) => {
  handle(request).then(reply, (e: unknown) => reply({ ok: false, failure: failure(e, 0, undefined), session }));
});
