// Which vitest project (lane) runs a test file, by its path, so that a new file falls into a lane
// by where it is written. The unit lane holds the tests that run their code in the test's own
// process (shared/, the renderer's logic, the engine and the service on a real SQLite file, a
// loopback HTTP server standing in for a remote API, the CLI's main() with captured output, the
// lint checks); `npm run test:unit` runs it alone. The process lane holds the tests whose subject is a process: the real `weft` binary
// (exit codes, bytes on stdout and stderr, argv), crash and kill recovery, `weft serve` and the
// server, components in a real Chromium (`*.browser.test.ts`), the build and the desktop shell. vitest.config.ts builds both projects from here, and
// test/lint/test-lanes.test.ts keeps a unit-lane file from spawning the CLI.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Lane = 'unit' | 'process';

/** Folders (from the repository root) whose tests run in the unit lane, unless listed below. */
export const UNIT_FOLDERS: readonly string[] = ['test/shared/', 'test/shared-node/', 'test/renderer/', 'test/engine/', 'test/store/', 'test/service/', 'test/lint/', 'test/cli/'];

/**
 * Files inside the unit folders whose subject is a process of their own: the real `weft` binary
 * (its printed JSON checked against shared/api's schemas) or a second process on the same store.
 * A test of the real binary is named `*-cli.test.ts` and needs no entry here: test/cli/ holds
 * both, the binary's tests (`*-cli.test.ts`) and main() in-process (the rest).
 */
export const PROCESS_FILES: readonly string[] = [
  'test/cli/stats-schema.test.ts',
  'test/cli/test-command.test.ts',
  'test/engine/event-subscription.test.ts',
  'test/engine/store-concurrent-create.test.ts',
  // a child process that starts a store worker and must end on its own
  'test/service/store-worker-idle.test.ts',
  // kills a real `weft run` mid-run (test/crash/weft-cli.ts)
  'test/engine/stats-rollups.test.ts',
  // each starts a PostgreSQL cluster of its own (test/fixtures/pg/cluster.ts) unless WEFT_TEST_PG names one
  'test/store/pg-cluster.test.ts',
  'test/store/pg-connection.test.ts',
  'test/store/pg-dialect.test.ts',
  'test/store/pg-cost-bucket.test.ts',
  'test/store/pg-db.test.ts',
  'test/store/pg-events-cursor.test.ts',
  'test/store/pg-log-tail.test.ts',
  'test/store/pg-store-sql.test.ts',
  'test/store/pg-sync.test.ts',
  'test/store/pg-translate.test.ts',
  // real `weft worker` processes stopped and killed on a cluster of their own
  'test/host/pg-claim.test.ts',
  'test/host/pg-fencing.test.ts',
  'test/host/pg-torture.test.ts',
];

/** The lane of a test file, given its path from the repository root with forward slashes. */
export function laneOf(file: string): Lane {
  if (PROCESS_FILES.includes(file) || file.endsWith('-cli.test.ts') || file.endsWith('.browser.test.ts')) return 'process';
  return UNIT_FOLDERS.some((folder) => file.startsWith(folder)) ? 'unit' : 'process';
}

/** Every vitest file under test/ (`*.test.ts`), as paths from the repository root. */
export function testFiles(root: string): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.split('\\').join('/')}`)
    .filter((file) => file.endsWith('.test.ts') && !file.includes('/fixtures/'))
    .sort();
}
