// Playwright drives Debian's chromium (Playwright cannot download its own browsers here) against
// the real `weft serve`. Tests live in test/e2e/*.spec.ts (vitest takes *.test.ts). One worker:
// a file's tests share one served workspace (its beforeAll), so files could run side by side, but
// chromium and the engine keep both cores busy: two workers took the same wall time on an idle
// machine (320 s against 324 s) and made waits on a loaded one longer (docs/testing.md).
import { defineConfig } from '@playwright/test';

const ci = process.env['CI'] === 'true';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/playwright',
  workers: 1,
  // Specs wait on states, never on time; these clocks only stop a broken test, so they are far
  // longer than anything takes on a loaded machine: an expectation (and expect.poll) waits up to
  // 90 s for its state (test/wait-until.ts's bound), a test is broken after 5 minutes.
  timeout: 300_000,
  expect: { timeout: 90_000 },
  reporter: ci ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]] : [['list']],
  use: {
    viewport: { width: 1440, height: 900 },
    // A failed test leaves a picture of its page beside its error (test-results/playwright/): a
    // flake on a loaded machine is then read from what the page showed, not guessed.
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env['WEFT_CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
});
