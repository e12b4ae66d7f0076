// "One store owner, many front ends": while a `weft serve` owns a store (it holds the lease and
// drives the runs), a terminal's command that changes that store is performed by the server. The
// server is found by the endpoint file it writes beside its store (serve.json, read by
// engine/host/endpoint-file.ts), and is taken for the owner only when all of this holds: the file
// is the user's own and only theirs (a file someone else planted would receive the user's inputs),
// it names a live process and a loopback address, and the server there answers /api/health naming
// this very store file (a folder may hold several stores). The command goes as a typed command
// (POST /api/commands), or to a route of its own (`weft bulk`, `weft artifact open`), and carries
// content only; the CLI has already read every file it names, with the user's own permissions. Node's http client (loopback-request.ts) is imported only when
// an endpoint file is there: a store no server owns, the usual case, costs a command one stat.
import { statSync } from 'node:fs';
import type { z } from 'zod';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { readEndpointFile } from '../host/endpoint-file.ts';
import { isPgStoreText } from '../service/store-text.ts';
import { ServiceError, type ServiceErrorCode } from '../service/service-error.ts';

export interface StoreOwner {
  url: string;
  /**
   * Has the server perform the request (a typed command to POST /api/commands, or another POST
   * route: the bulk routes of `weft bulk`, a run's artifact route of `weft artifact open`) and
   * answers its (parsed) answer; `answered: false` when the server was gone before it took the
   * request, which may then run here. A refusal is thrown as the ServiceError the server raised,
   * so it prints as it does when the command runs here.
   */
  post<S extends z.ZodType>(path: `/api/${string}`, body: unknown, answer: S): Promise<{ answered: true; value: z.infer<S> } | { answered: false }>;
}

/**
 * How long a server may take to say which store it owns. One that does not answer (hung, or
 * stopped with SIGSTOP) is passed over: the command then waits for the store's lease as any
 * command does while another engine holds it, and says so.
 */
const HEALTH_WAIT_MS = 60_000;

const SERVICE_CODES: readonly ServiceErrorCode[] = ['bad-input', 'not-found', 'refused', 'internal'];
const isServiceCode = (code: string): code is ServiceErrorCode => SERVICE_CODES.some((c) => c === code);

/**
 * The `weft serve` that owns the store at `dbPath` (an absolute path), or undefined when none does.
 * A PostgreSQL store (a URL) has no owner to hand commands to: no serve.json sits beside it, and
 * many engines share it (docs/postgres.md); a command there runs under its own engine session.
 */
export async function storeOwner(dbPath: string): Promise<StoreOwner | undefined> {
  if (isPgStoreText(dbPath)) return undefined;
  const endpoint = readEndpointFile(dbPath);
  if (endpoint === undefined) return undefined;
  const { loopbackRequest, NotReached } = await import('./loopback-request.ts');
  let store: unknown;
  try {
    const health = await loopbackRequest(endpoint.url, endpoint.token, 'GET', '/api/health', undefined, HEALTH_WAIT_MS);
    if (health.status !== 200 || health.body === null || typeof health.body !== 'object' || !('store' in health.body)) return undefined;
    store = health.body.store;
  } catch {
    return undefined; // no server there (any more): the command runs here
  }
  if (typeof store !== 'string' || !sameFile(store, dbPath)) return undefined;
  const { url, token } = endpoint;
  const where = `the weft serve that owns ${dbPath} (${url})`;
  const post: StoreOwner['post'] = async (path, body, answer) => {
    let reply;
    try {
      reply = await loopbackRequest(url, token, 'POST', path, body);
    } catch (error) {
      if (error instanceof NotReached) return { answered: false };
      throw new ServiceError('internal', `${where} stopped before it answered (${error instanceof Error ? error.message : String(error)}); the command may have been carried out: look with weft runs or weft inspect before you run it again`);
    }
    if (reply.status >= 200 && reply.status < 300) {
      const parsed = answer.safeParse(reply.body);
      if (parsed.success) return { answered: true, value: parsed.data };
      throw new ServiceError('internal', `${where} answered something this weft does not understand (is it another version of weft?); the command was carried out: look with weft runs or weft inspect`);
    }
    const refusal = ApiErrorBody.safeParse(reply.body);
    if (refusal.success && isServiceCode(refusal.data.error.code)) throw new ServiceError(refusal.data.error.code, refusal.data.error.message, refusal.data.error.path);
    const why = refusal.success ? refusal.data.error.message : `HTTP ${reply.status}`;
    throw new ServiceError('internal', `${where} refused the command: ${why}`);
  };
  return { url, post };
}

/** Whether two paths name the same file (the same device and inode), whatever links lead there. */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
