// serve.json on disk: what the writer writes the reader reads back, readable by the user alone;
// a file the reader may not trust (others may write it, it names a dead process, it does not
// parse as an endpoint, it is not a plain file) reads as no endpoint, so the command runs on its own.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { endpointFileOf, readEndpointFile, removeEndpointFile, writeEndpointFile } from '../../../engine/host/endpoint-file.ts';

const root = mkdtempSync(join(tmpdir(), 'weft-endpoint-file-'));
let n = 0;
let store = '';
const endpoint = { url: 'http://127.0.0.1:43117', port: 43117, token: 'test-token-0123456789abcdefghijklmnopqrstuvwxyz', pid: process.pid, workspace: '/home/ana/flows' };

beforeEach(() => {
  const dir = join(root, String(n++));
  mkdirSync(dir);
  store = join(dir, 'weft.db');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('writes serve.json beside the store, mode 0600, and reads back what it wrote', () => {
  const file = writeEndpointFile(store, endpoint);
  expect(file).toBe(join(store, '..', 'serve.json'));
  expect(file).toBe(endpointFileOf(store));
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(endpoint);
  expect(readEndpointFile(store)).toEqual(endpoint);
  removeEndpointFile(store);
  expect(readEndpointFile(store)).toBeUndefined();
  removeEndpointFile(store); // gone already: nothing to do
});

it('makes a file that was there with a wider mode the user’s alone', () => {
  writeFileSync(endpointFileOf(store), '{}', { mode: 0o644 });
  chmodSync(endpointFileOf(store), 0o644);
  writeEndpointFile(store, endpoint);
  expect(statSync(endpointFileOf(store)).mode & 0o777).toBe(0o600);
});

it('refuses to write what is not an endpoint', () => {
  expect(() => writeEndpointFile(store, { ...endpoint, url: 'http://0.0.0.0:43117' })).toThrow(/http:\/\/127\.0\.0\.1:PORT/);
});

it.each<[string, (file: string) => void]>([
  ['others may write it', (file) => chmodSync(file, 0o666)],
  ['the group may read it', (file) => chmodSync(file, 0o640)],
  ['it names a process that is gone', (file) => writeFileSync(file, JSON.stringify({ ...endpoint, pid: 2_147_483_000 }), { mode: 0o600 })],
  ['it is not JSON', (file) => writeFileSync(file, '{"url": ', { mode: 0o600 })],
  ['it lacks the token', (file) => writeFileSync(file, JSON.stringify({ ...endpoint, token: undefined }), { mode: 0o600 })],
  ['it names another host', (file) => writeFileSync(file, JSON.stringify({ ...endpoint, url: 'http://10.0.0.7:43117' }), { mode: 0o600 })],
  [
    'it is a link to the user’s own endpoint',
    (file) => {
      const real = join(root, `real-${n}.json`);
      writeFileSync(real, JSON.stringify(endpoint), { mode: 0o600 });
      rmSync(file);
      symlinkSync(real, file);
    },
  ],
])('reads no endpoint when %s', (_, spoil) => {
  writeEndpointFile(store, endpoint);
  spoil(endpointFileOf(store));
  expect(readEndpointFile(store)).toBeUndefined();
});
