// The header's store badge in chromium, the whole app against a real server over a PostgreSQL store
// shared by two engines (test/fixtures/pg/pg-server.ts): it reads "PostgreSQL · 2 workers", its card
// (on hover) lists each engine's role, host and pid under the store's name, which carries no
// password; when a worker leaves, the badge follows within its refresh of health ("1 worker").
// Screenshots in both themes go to test-results/store-badge-*.png for a person to look at.
import { hostname } from 'node:os';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleHarness, collectPageErrors, launchChromium, newHarnessPage, shootBothThemes } from '../browser-harness.ts';
import { transformChain } from '../../engine/transform-chain.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../../fixtures/pg/test-pg.ts';
import { servePg, type PgServer, type PgWorker } from '../../fixtures/pg/pg-server.ts';

const TOKEN = 'store-badge-token-0123456789abcdefghijklmnopqrstuvwxyz';
const PASSWORD = 'badge-s3cret-pw';

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the store badge on a PostgreSQL store', () => {
  let pg: TestPg;
  let server: PgServer;
  let worker: PgWorker;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    pg = await openTestPg();
    server = await servePg(pg, TOKEN, { 'chain.weft.json': transformChain('chain', 3) }, { password: PASSWORD });
    worker = server.addWorker();
    const files = await bundleHarness("import './renderer/main.tsx';\n", 'store-badge-harness.tsx', { base: '/__t', format: 'esm' });
    browser = await launchChromium();
    page = await newHarnessPage(browser, { viewport: { width: 1280, height: 720 } });
    errors = collectPageErrors(page);
    await page.route(`${server.url}/__t/**`, (route) => {
      const file = files.get(new URL(route.request().url()).pathname);
      return file === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await pg?.close();
  });

  it('shows PostgreSQL with its live workers, lists them on hover, and follows a worker that leaves', async () => {
    const finished = worker.run('chain');
    await worker.engine.settled(finished);
    worker.engine.flush();
    await page.goto(`${server.url}/__t/index.html#token=${TOKEN}`);
    const badge = page.getByTestId('store-badge');
    const shown = () => badge.locator('> span:not(.store-badge-card)').allTextContents();
    await expect.poll(shown).toEqual(['PostgreSQL', '·', '2 workers']);
    await badge.hover();
    const card = badge.getByRole('tooltip');
    await card.waitFor({ state: 'visible' });
    expect(await card.locator('.store-badge-role').allTextContents()).toEqual(['serve', 'worker']);
    expect(await card.locator('.store-badge-host').allTextContents()).toEqual([hostname(), hostname()]);
    expect(await card.locator('.store-badge-pid').allTextContents()).toEqual([`pid ${process.pid}`, `pid ${process.pid}`]);
    expect(await card.locator('.store-badge-title').textContent()).toMatch(new RegExp(`^PostgreSQL database ".+, schema ${server.schema}$`));
    expect(await page.content()).not.toContain(PASSWORD);
    await shootBothThemes(page, 'store-badge', { badge, card, connection: page.getByTestId('connection') });

    worker.leave();
    await page.mouse.move(0, 400);
    await expect.poll(shown).toEqual(['PostgreSQL', '·', '1 worker']);
    expect(errors).toEqual([]);
  });
});
