// A store worker that has started and sits idle does not keep its process alive (store-worker.ts):
// a process that asked nothing more of it ends on its own. Adding a 'message' listener to a
// Worker after unref() refs it again, which kept such a process running forever.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAIT_BOUND_MS } from '../wait-until.ts';

describe('an idle store worker', () => {
  it('keeps no process alive once it has answered', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-idle-worker-'));
    try {
      const script = join(dir, 'idle.mts');
      const at = (path: string): string => JSON.stringify(new URL(path, import.meta.url).href);
      writeFileSync(script, [
        `import { openDatabase } from ${at('../../engine/store/open-database.ts')};`,
        `import { CompareWorker } from ${at('../../engine/service/compare-worker.ts')};`,
        `const path = ${JSON.stringify(join(dir, 'weft.db'))};`,
        'openDatabase(path).close();',
        "const worker = new CompareWorker(path, () => { throw new Error('computed on the worker, not here'); });",
        "const answer = await worker.compare('nope-a', 'nope-b', { valueLimit: 100, fieldLimit: 10 }).then(() => 'compared', (e) => e.message);",
        'console.log(answer);',
      ].join('\n'));
      // The bound only stops a broken test (a process kept alive) from blocking the run forever.
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname, timeout: WAIT_BOUND_MS });
      expect(child.signal).toBe(null);
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      expect(child.stdout).toMatch(/no run/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
