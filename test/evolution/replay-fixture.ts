// Shared by the replay tests: a "record-update" workflow whose http steps call a counting HTTP
// server on 127.0.0.1, and versions of it that fix, change, break or extend it. v1 fetches a
// record, saves it when it is ok, and ends failed when it is not.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server that answers the workflow's calls and counts every request it gets. */
export interface CountingServer {
  base: string;
  readonly count: number;
  close(): Promise<void>;
}

export async function countingServer(): Promise<CountingServer> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count++;
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('n') ?? '0');
      const body = url.pathname === '/record' ? { n, ok: n < 10 } : { saved: true };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    get count() {
      return count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Edit = { ok?: string; rejectedStatus?: 'failed' | null; tag?: boolean; version?: number };

/** record-update at `base`: v1 by default; `ok` the condition to save, `rejectedStatus` the end of a record not ok, `tag` a transform after save. */
export function recordUpdate(base: string, edit: Edit = {}): Record<string, unknown> {
  const tag = edit.tag === true;
  return {
    format: 'weft/v1',
    id: 'record-update',
    version: edit.version ?? 1,
    name: 'Record update',
    steps: [
      { id: 'fetch', kind: 'http', config: { method: 'GET', url: `${base}/record?n={{ input.n }}` } },
      { id: 'decide', kind: 'router', input: 'steps.fetch.output.body' },
      { id: 'save', kind: 'http', input: 'steps.fetch.output.body', config: { method: 'POST', url: `${base}/save`, body: 'steps.fetch.output.body' } },
      ...(tag ? [{ id: 'tag', kind: 'transform', config: { expression: '{"tagged": true}' } }] : []),
      { id: 'done', kind: 'end' },
      { id: 'rejected', kind: 'end', ...(edit.rejectedStatus === null ? {} : { config: { status: edit.rejectedStatus ?? 'failed' } }) },
    ],
    edges: [
      { id: 'fetched', from: 'fetch', to: 'decide' },
      { id: 'to_save', from: 'decide', to: 'save', when: edit.ok ?? 'output.ok' },
      { id: 'to_rejected', from: 'decide', to: 'rejected', default: true },
      ...(tag ? [{ id: 'saved', from: 'save', to: 'tag' }, { id: 'tagged', from: 'tag', to: 'done' }] : [{ id: 'saved', from: 'save', to: 'done' }]),
    ],
  };
}
