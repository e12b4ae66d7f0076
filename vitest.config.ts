import { defineConfig } from 'vitest/config';

// Under CI a JSON report is written too, so .ci/run can print the "N passed, N failed" line.
const ci = process.env['CI'] === 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the CLI bundle when stale, so tests that spawn `weft` do not pay for tsx each call.
    globalSetup: ['test/cli/fresh-bundle-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: 'test-results/vitest.json' } } : {}),
  },
});
