// The app's shell in Debian's chromium against the real `weft serve` on a copy of examples/.
import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { exampleWorkspace, REPO_ROOT, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  // Run in the page, where window and document exist (this file is type-checked without the DOM).
  await page.evaluate(`localStorage.setItem('weft.theme', '${theme}'); document.documentElement.dataset.theme = '${theme}'`);
}

test('the token address opens the app and lists the six examples', async ({ page }) => {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  for (const id of ['agent-escalation', 'order-payment', 'parallel-research', 'record-update', 'research-review', 'trip-saga']) {
    await expect(page.getByTestId(`workflow-row-${id}`)).toBeVisible();
  }
  // The token left the address bar for session storage.
  expect(page.url()).not.toContain('token=');
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(page.getByTestId('workspace')).toContainText(ws.dir);
});

test('trip-saga shows one node per step and one edge per edge, in both themes', async ({ page }) => {
  const definition = (await import(join(REPO_ROOT, 'examples/trip-saga.weft.json'), { with: { type: 'json' } })).default as { steps: unknown[]; edges: unknown[] };
  await page.goto(served.address);
  await page.getByTestId('workflow-row-trip-saga').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(definition.steps.length);
  await expect(page.locator('.react-flow__edge')).toHaveCount(definition.edges.length);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.screenshot({ path: `test-results/screenshots/workflow-trip-saga-${theme}.png` });
  }
});

test('a run started from a terminal colours its nodes live', async ({ page }) => {
  const { startFakeApi } = (await import(join(REPO_ROOT, 'examples/fake-api.mjs'))) as { startFakeApi: (port?: number) => Promise<{ url: string; close(): Promise<void> }> };
  const api = await startFakeApi(0);
  try {
    await page.goto(served.address);
    await page.getByTestId('nav-runs').click();
    await expect(page.getByText('No runs yet')).toBeVisible();
    const input = JSON.stringify({ apiBase: api.url, recordId: 'A17', changes: { status: 'closed' } });
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [join(REPO_ROOT, 'bin/weft.js'), 'run', join(ws.dir, 'record-update.weft.json'), '--input', input, '--json'], { env: ws.env, cwd: ws.dir }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
      );
    });
    expect(result.stderr).toBe('');
    const { runId } = JSON.parse(result.stdout) as { runId: string };
    const row = page.getByTestId(`run-row-${runId}`);
    await expect(row).toBeVisible();
    await row.click();
    await expect(page.getByTestId('run-state')).toBeVisible();
    await expect(page.locator('[data-testid^="step-state-"]').first()).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await page.screenshot({ path: `test-results/screenshots/run-record-update-${theme}.png` });
    }
  } finally {
    await api.close();
  }
});
