import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { laneOf, testFiles } from './test/lanes.ts';
import { CONFORMANCE_FILES } from './test/conformance/conformance-files.ts';
import { pgInstalled } from './test/fixtures/pg/cluster.ts';

// Under CI a JSON report is written too, so .ci/run can print the "N passed, N failed" line (one
// report for both projects: its totals count every test).
const ci = process.env['CI'] === 'true';

// Tests wait on conditions, never on time (test/wait-until.ts). The clocks below only stop a
// broken test, so they are far longer than any test takes on a loaded machine (the suite must
// pass with other work holding both cores): a wait (waitUntil, expect.poll) gives up after
// 90 s with a message naming what never happened, before the test's own 120 s.
const BROKEN_TEST_MS = 120_000;
const WAIT_BOUND_MS = 90_000;

// Two projects (lanes, test/lanes.ts decides by path): `unit` runs code in the test's process,
// `process` spawns the real CLI, `weft serve`, crashes and builds. `vitest run` runs both, `npm run
// test:unit` the unit lane alone (vitest --project unit).
// The conformance suite (issue 25) runs where PostgreSQL can: CI (.ci/run starts one and sets
// WEFT_TEST_PG; without it the project's setup fails the run), or a machine with WEFT_TEST_PG or
// PostgreSQL's binaries (a cluster is started for the run).
const pgProject = ci || (process.env['WEFT_TEST_PG'] ?? '') !== '' || pgInstalled();
const unitFiles = testFiles(fileURLToPath(new URL('.', import.meta.url))).filter((file) => laneOf(file) === 'unit');

export default defineConfig({
  test: {
    testTimeout: BROKEN_TEST_MS,
    hookTimeout: BROKEN_TEST_MS,
    expect: { poll: { timeout: WAIT_BOUND_MS } },
    // Two files at a time (the default on two cores is one): a CLI test spends most of its time
    // waiting on a child, so the other worker has a core. Both lanes share these two workers.
    maxWorkers: 2,
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: 'test-results/vitest.json' } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          // In-process tests share a worker thread and its loaded modules: no process start and no
          // re-import of zod, the engine and the renderer's logic per file. Tests put back what
          // they change (process.env through test/env-override.ts, their own temp folders).
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...unitFiles],
          // Builds the CLI bundle when stale, so tests that spawn `weft` do not pay for tsx each call.
          globalSetup: ['test/cli/fresh-bundle-setup.ts'],
          // Files share a worker and its loaded modules here too: importing the engine, the
          // server and zod anew for each of ~100 files cost about half of this lane's CPU (12
          // server files: 57 s of CPU isolated, 30 s shared). What a test changes it puts back
          // (test/lint/test-env.test.ts for process.env; fake timers restored in afterEach).
          isolate: false,
        },
      },
      ...(pgProject
        ? [
            {
              extends: true as const,
              test: {
                name: 'pg',
                include: [...CONFORMANCE_FILES],
                env: { WEFT_TEST_STORE: 'postgres' },
                globalSetup: ['test/fixtures/pg/pg-project-setup.ts'],
                pool: 'threads' as const,
                isolate: false,
              },
            },
          ]
        : []),
    ],
  },
});
