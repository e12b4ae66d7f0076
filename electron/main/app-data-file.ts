// The files main keeps in the app-data folder (settings, provider keys, window state): written
// atomically (shared-node/atomic-file.ts), so a crash mid-write leaves the previous file, never
// half of a new one; readable by the user alone; and read leniently, as a missing or damaged
// file only means the defaults.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';

/** Writes a file of the app-data folder (created when missing), readable by the user alone. */
export function writeAppDataFile(path: string, content: string): void {
  writeFileAtomic(path, content, { mode: 0o600, createFolder: true });
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
