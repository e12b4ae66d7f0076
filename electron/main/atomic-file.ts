// Files main keeps in the app-data folder are written to a temporary sibling and renamed over the
// old one, so a crash mid-write leaves the previous file, never half of a new one.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `createFolder` is for the app-data folder only: a user-chosen path names a folder that exists,
 * and Node's recursive mkdir can spin forever on some unwritable parents (e.g. under /proc).
 */
export function writeFileAtomic(path: string, content: string | Buffer, { mode = 0o600, createFolder = true }: { mode?: number; createFolder?: boolean } = {}): void {
  if (createFolder) mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode });
  renameSync(temp, path);
}

/** The file's parsed JSON, or undefined when it is missing, unreadable or not JSON. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
