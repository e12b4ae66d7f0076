// Under tsx (a checkout run from source, and the tests), a worker thread does not inherit the
// TypeScript loader: this bootstrap registers tsx in the worker, then loads the TypeScript entry
// (store-worker.ts starts every store worker through it). The bundled CLI starts
// dist/cli/<name>-entry.js directly instead.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
