// The supplier the quote-reread fixture (test/fixtures/scenarios/quote-reread.weft.json) reads its
// price from and orders at, as a real http server on 127.0.0.1, and that workflow written into a
// test's folder with every revalidate check due after any wait (the approvals come from later
// commands): shared by the CLI tests of `revalidate.fetch`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
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

/** Starts the supplier at `price`, and writes quote-reread.weft.json into `dir` with `afterMs` 0. */
export async function startSupplier(dir: string, price: number): Promise<Supplier> {
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
  const supplier: Supplier = { price, failNext: false, requests: 0, gets: 0, apiBase: '', close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  supplier.apiBase = `http://127.0.0.1:${address.port}`;
  const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/scenarios/quote-reread.weft.json'), 'utf8')) as { $schema?: string; steps: { revalidate?: { afterMs?: number } }[] };
  delete flow.$schema;
  for (const s of flow.steps) if (s.revalidate !== undefined) s.revalidate.afterMs = 0;
  writeFileSync(join(dir, 'quote-reread.weft.json'), JSON.stringify(flow));
  return supplier;
}
