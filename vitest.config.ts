import { defineConfig } from 'vitest/config';

// Under CI a JSON report is written too, so .ci/run can print the "N passed, N failed" line.
const ci = process.env['CI'] === 'true';

// Tests wait on conditions, never on time (test/wait-until.ts). The clocks below only stop a
// broken test, so they are far longer than any test takes on a loaded machine (the suite must
// pass with other work holding both cores): a wait (waitUntil, expect.poll) gives up after
// 90 s with a message naming what never happened, before the test's own 120 s.
const BROKEN_TEST_MS = 120_000;
const WAIT_BOUND_MS = 90_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the CLI bundle when stale, so tests that spawn `weft` do not pay for tsx each call.
    globalSetup: ['test/cli/fresh-bundle-setup.ts'],
    testTimeout: BROKEN_TEST_MS,
    hookTimeout: BROKEN_TEST_MS,
    expect: { poll: { timeout: WAIT_BOUND_MS } },
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: 'test-results/vitest.json' } } : {}),
  },
});
