// The supplier the quote-reread fixture (test/fixtures/scenarios/quote-reread.weft.json) reads its
// price from and orders at, as a real http server on 127.0.0.1, and that workflow written into a
// test's folder with every revalidate check due after any wait (the approvals come from later
// commands): shared by the CLI tests of `revalidate.fetch`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { REPO_ROOT } from './run-weft.ts';

/** The supplier's state: its price, whether its next GET answers 503, and what it received. */
export interface Supplier {
  price: number;
  failNext: boolean;
  requests: number;
  gets: number;
  apiBase: string;
  close(): Promise<void>;
}

/** Starts the supplier at `price` (its state kept in `supplier`), and writes quote-reread.weft.json into `dir` with `afterMs` 0. */
async function startSupplier(dir: string, price: number, supplier: Supplier): Promise<void> {
  const server = createServer((req, res) => {
    supplier.requests++;
    if (req.method === 'GET') supplier.gets++;
    if (req.method === 'GET' && supplier.failNext) {
      supplier.failNext = false;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"the supplier is down"}');
      return;
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.method === 'POST' ? { orderId: 'O-1' } : { price: supplier.price }));
  });
  Object.assign(supplier, { price, failNext: false, requests: 0, gets: 0, apiBase: '', close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  supplier.apiBase = `http://127.0.0.1:${address.port}`;
  const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/scenarios/quote-reread.weft.json'), 'utf8')) as { $schema?: string; steps: { revalidate?: { afterMs?: number } }[] };
  delete flow.$schema;
  for (const s of flow.steps) if (s.revalidate !== undefined) s.revalidate.afterMs = 0;
  writeFileSync(join(dir, 'quote-reread.weft.json'), JSON.stringify(flow));
}

/**
 * A test file's folder (named `prefix`…, with its own weft config and user "ann") and the
 * supplier, started before its tests and stopped (the folder removed) after them. The supplier
 * object is filled in once beforeAll has run.
 */
export function supplierWorkspace(prefix: string, price = 1200): { dir: string; supplier: Supplier } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_USER: 'ann' });
  const supplier = {} as Supplier;
  beforeAll(async () => {
    await startSupplier(dir, price, supplier);
  });
  afterAll(async () => {
    restoreEnv();
    await supplier.close?.();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, supplier };
}
