// Module hooks of a script runner (registered with node:module `register`, so this runs on
// Node's hooks thread). A warm runner keeps its module cache between attempts; to never run
// stale code after the author edits a file, it must know every file it loaded and how that file
// looked then. This hook reports each file as it is loaded; script-runner.ts compares them with
// the disk before reusing the cache.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';

/** Sent for each loaded file: its path and a stamp (mtime and size) taken as it was loaded. */
export interface LoadedFile {
  path: string;
  stamp: string;
}

let port: MessagePort | undefined;

export function initialize(data: { port: MessagePort }): void {
  port = data.port;
}

type NextLoad = (url: string, context: unknown) => Promise<unknown>;

export async function load(url: string, context: unknown, nextLoad: NextLoad): Promise<unknown> {
  if (url.startsWith('file:')) {
    const path = fileURLToPath(url);
    const stamp = fileStamp(path);
    if (stamp !== undefined) port?.postMessage({ path, stamp } satisfies LoadedFile);
  }
  return nextLoad(url, context);
}

/** What changes when a file is edited; undefined when it cannot be read. */
export function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}
