// The freshness stamp of the bundled CLI: how many TypeScript sources the bundle is built from and
// the newest of their mtimes. Shared by build/bundle-cli.mjs (which writes it) and bin/weft.js
// (which compares it), so both walk exactly the same files. Walking ~300 files costs ~2 ms.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['engine', 'shared'];

/** @param {string} root the project folder @returns {{files: number, newestMs: number}} */
export function sourceStamp(root) {
  let files = 0;
  let newestMs = statSync(join(root, 'package.json')).mtimeMs;
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      files += 1;
      const mtime = statSync(join(entry.parentPath, entry.name)).mtimeMs;
      if (mtime > newestMs) newestMs = mtime;
    }
  }
  return { files, newestMs };
}
