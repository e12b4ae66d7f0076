// Issue 19, item 12: a page open across a restart of `weft serve`. The page cannot learn a new
// token by itself (only the terminal and serve.json, readable by the user alone, hold it), so it
// says what happened and what to do: with a new token on the same port (its WebSocket gets 401),
// that the server restarted and its address must be opened again; on another port (nothing
// answers any more), after a few failed attempts, that a restarted server's address must be
// opened. Doing what it says brings the page back. Screenshots of both notices in both themes.
import { expect, test } from '@playwright/test';
import { exampleWorkspace, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

test.beforeEach(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
});

test.afterEach(async () => {
  await served?.stop();
  ws?.remove();
});

test('restarted with a new token: the open page says so and what to do, and the new address brings it back', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  const { port, token } = served;
  await served.stop();
  await expect(page.getByTestId('connection-lost')).toBeVisible();
  served = await startServe(ws, { port });
  expect(served.token).not.toBe(token);

  const notice = page.getByTestId('token-stale');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('weft serve was restarted with a new access token');
  await expect(notice).toContainText(`open the address it printed in its terminal (http://127.0.0.1:${port}/#token=…)`);
  await expect(page.getByTestId('connection-lost')).toBeHidden();
  // The page stays as it was under the notice (nothing the user was looking at is taken away).
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await shootBothThemes(page, 'server-restart-new-token', { notice });

  // Doing what it says: the address the terminal printed.
  await page.goto(served.address);
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('token-stale')).toBeHidden();
  await expect(page.getByTestId('workflow-list')).toBeVisible();
});

test('restarted on another port: after a few failed attempts the page says to open the address the terminal printed', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await served.stop();
  served = await startServe(ws);
  const lost = page.getByTestId('connection-lost');
  await expect(lost).toBeVisible();
  await expect(lost).toContainText('Reconnecting…');
  await expect(lost).toContainText('If weft serve was restarted, open the address it printed in its terminal');
  // What the page showed stays under the banner.
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await shootBothThemes(page, 'server-restart-other-port', { banner: lost });
  await page.goto(served.address);
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('connection-lost')).toBeHidden();
});
