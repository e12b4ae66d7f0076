// Vitest global setup: builds dist/cli/ when it is missing or older than the sources, so the
// tests that spawn bin/weft.js run the bundle (a CLI call costs a fraction of its time through
// tsx: test/cli/run-cli.test.ts takes about a quarter of the time). A failed build is reported and
// the tests go on: bin/weft.js then runs the sources through tsx, as it does for any stale build.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freshBundlePath } from '../../bin/source-stamp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): void {
  if (process.env['WEFT_FROM_SOURCE'] === '1' || freshBundlePath(ROOT) !== undefined) return;
  const built = spawnSync(process.execPath, ['build/bundle-cli.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) process.stderr.write(`tests: building dist/cli/ failed, so the CLI runs through tsx:\n${built.stdout}${built.stderr}`);
}
