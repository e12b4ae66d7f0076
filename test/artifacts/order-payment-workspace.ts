// A workspace for the from-run artifact tests: examples/order-payment in a folder of its own (its
// store goes there too) and the fake shop API (examples/fake-api.mjs) on 127.0.0.1, started before
// the file's tests and stopped, and the folder removed, after them.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from '../cli/run-weft.ts';

export interface OrderPaymentWorkspace {
  /** The fake shop API's base URL (the run's `apiBase`). */
  apiUrl: string;
  dir: string;
}

/** The workspace, filled in by the file's beforeAll. */
export function orderPaymentWorkspace(prefix: string): OrderPaymentWorkspace {
  const ws: OrderPaymentWorkspace = { apiUrl: '', dir: '' };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const module = (await import(pathToFileURL(join(REPO_ROOT, 'examples', 'fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<{ url: string; close: () => Promise<void> }> };
    const api = await module.startFakeApi(0);
    close = api.close;
    ws.apiUrl = api.url;
    ws.dir = mkdtempSync(join(tmpdir(), prefix));
    copyFileSync(join(REPO_ROOT, 'examples', 'order-payment.weft.json'), join(ws.dir, 'order-payment.weft.json'));
  });
  afterAll(async () => {
    await close?.();
    if (ws.dir !== '') rmSync(ws.dir, { recursive: true, force: true });
  });
  return ws;
}
