// The freshness stamp of the bundled CLI: how many TypeScript sources the bundle is built from and
// the newest of their mtimes. Shared by build/bundle-cli.mjs (which writes it) and bin/weft.js
// (which compares it), so both walk exactly the same files. It runs at every start of `weft`, so
// the walk joins paths by hand: path.join's normalising of ~300 paths (in readdirSync's
// recursive mode too) cost more than the stats did, over half of the walk and a tenth of
// `weft --version`'s CPU time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['engine', 'shared', 'shared-node'];

/** @param {string} root the project folder @returns {{files: number, newestMs: number}} */
export function sourceStamp(root) {
  const stamp = { files: 0, newestMs: statSync(join(root, 'package.json')).mtimeMs };
  for (const dir of SOURCE_DIRS) walk(join(root, dir), stamp);
  return stamp;
}

/** Counts the .ts files under `dir` (subfolders too, not through symlinks) and keeps the newest mtime. */
function walk(dir, stamp) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(path, stamp);
    else if (entry.isFile() && entry.name.endsWith('.ts')) {
      stamp.files += 1;
      const mtime = statSync(path).mtimeMs;
      if (mtime > stamp.newestMs) stamp.newestMs = mtime;
    }
  }
}

/**
 * The bundle's entry (dist/cli/weft.js) when it was built from the sources as they are now, else
 * undefined (never built, a source newer or added or removed since, or a damaged stamp).
 * @param {string} root the project folder @returns {string | undefined}
 */
export function freshBundlePath(root) {
  const bundle = join(root, 'dist/cli/weft.js');
  const stampFile = join(root, 'dist/cli/build-stamp.json');
  if (!existsSync(bundle) || !existsSync(stampFile)) return undefined;
  // A packaged app (or any install without the TypeScript sources) has only the bundle: it is the
  // code, so it is fresh by definition.
  if (SOURCE_DIRS.every((dir) => !existsSync(join(root, dir)))) return bundle;
  try {
    const built = JSON.parse(readFileSync(stampFile, 'utf8'));
    const now = sourceStamp(root);
    return now.files === built.files && now.newestMs <= built.newestMs ? bundle : undefined;
  } catch {
    return undefined; // no sources beside the bundle, or a damaged stamp: the sources decide
  }
}
