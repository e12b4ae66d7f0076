// The workspace policy in the app (docs/policies.md): its page shows the file's rules in words and
// checks the text as it is typed; a step that breaks a rule shows the rule on its node and in
// Problems, and fixing the step in the editor clears it; a policy saved on the page reaches the
// editor at once. Real `weft serve` on a copy of examples/, real chromium, with screenshots.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

/** order-payment's `fulfil` may try 5 times, over this cap for external steps; `create_order` (3) is within it. */
const POLICY = {
  format: 'weft-policy/v1',
  retries: [{ id: 'few-external-retries', description: 'A payment provider counts every call.', select: { effects: ['external'] }, maxAttempts: 3 }],
  forbid: [{ id: 'no-skipping-external', action: 'skip', select: { effects: ['external'] } }],
};

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'weft.policy.json'), `${JSON.stringify(POLICY, null, 2)}\n`);
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

const node = (page: Page, id: string): Locator => page.getByTestId(`step-node-${id}`);

async function openEditor(page: Page, id: string): Promise<void> {
  await page.goto(served.address);
  await expect(page.getByTestId('workflow-list')).toBeVisible();
  await page.getByTestId(`workflow-row-${id}`).click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
}

test('a step that breaks the policy shows the rule on its node, and fixing it in the editor clears it', async ({ page }) => {
  await openEditor(page, 'order-payment');
  const row = page.locator('[data-testid="problem-row"][data-step="fulfil"]').filter({ hasText: 'few-external-retries' });
  await expect(row).toBeVisible();
  await expect(node(page, 'fulfil').locator('.node-problem-error')).toBeVisible();
  await expect(node(page, 'create_order').locator('.node-problem-error')).toHaveCount(0);
  await shootBothThemes(page, 'policy-violation-on-node', {
    ...appChrome(page),
    'fulfil with its problem': node(page, 'fulfil'),
    'the policy problem': row,
  });

  // From the problem to the step's retry field, then within the cap.
  await row.click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  const attempts = page.getByTestId('field-retry.maxAttempts');
  await expect(attempts).toBeVisible();
  await attempts.fill('3');
  await attempts.press('Tab');
  await expect(row).toHaveCount(0);
  await expect(node(page, 'fulfil').locator('.node-problem-error')).toHaveCount(0);
  await page.keyboard.press(`${MOD}+s`);
  await expect(page.getByTestId('save-status')).toContainText('Saved');
  const saved = JSON.parse(readFileSync(join(ws.dir, 'order-payment.weft.json'), 'utf8')) as { steps: { id: string; retry?: { maxAttempts?: number } }[] };
  expect(saved.steps.find((s) => s.id === 'fulfil')?.retry?.maxAttempts).toBe(3);
});

test('the policy page shows the rules in words, checks the text as it is typed, and a saved rule reaches the editor', async ({ page }) => {
  await page.goto(served.address);
  await page.getByTestId('nav-policy').click();
  await expect(page.getByTestId('policy-page')).toBeVisible();
  await expect(page.getByTestId('policy-status')).toHaveText('Saved');
  await expect(page.getByTestId('policy-rule-few-external-retries')).toContainText('External steps may make at most 3 attempts.');
  await expect(page.getByTestId('policy-rule-no-skipping-external')).toContainText('Operators may not skip external steps.');
  await shootBothThemes(page, 'policy-page', {
    ...appChrome(page),
    'the file': page.getByTestId('policy-text'),
    'the rules': page.getByTestId('policy-rules'),
  });

  // A typo is a problem with its place and fix, and Save waits for it to be fixed.
  const input = page.getByTestId('policy-text-input');
  await input.click();
  await page.keyboard.press(`${MOD}+a`);
  await page.keyboard.insertText(JSON.stringify({ format: 'weft-policy/v1', retries: [{ id: 'few-external-retries', select: { effects: ['external'] }, maxAtempts: 2 }] }, null, 1));
  // The misspelt key, and the cap it leaves out.
  await expect(page.getByTestId('policy-status')).toHaveText('2 problems');
  await expect(page.getByTestId('policy-problems')).toContainText('unknown key "maxAtempts"');
  await expect(page.getByTestId('policy-problems')).toContainText('$.retries[0].maxAttempts');
  await expect(page.getByTestId('policy-save')).toBeDisabled();
  await shootBothThemes(page, 'policy-page-problem', { 'the file': page.getByTestId('policy-text'), 'the problem': page.getByTestId('policy-problems') });

  // Fixed: two attempts at most, saved to the file.
  await page.keyboard.press(`${MOD}+a`);
  await page.keyboard.insertText(JSON.stringify({ format: 'weft-policy/v1', retries: [{ id: 'few-external-retries', select: { effects: ['external'] }, maxAttempts: 2 }] }, null, 1));
  await expect(page.getByTestId('policy-status')).toHaveText('Unsaved changes');
  await page.getByTestId('policy-save').click();
  await expect(page.getByTestId('policy-status')).toHaveText('Saved');
  expect(JSON.parse(readFileSync(join(ws.dir, 'weft.policy.json'), 'utf8'))).toMatchObject({ retries: [{ maxAttempts: 2 }] });

  // The editor checks against the new cap at once: fulfil's 3 attempts are now too many.
  await page.getByTestId('nav-workflows').click();
  await page.getByTestId('workflow-row-order-payment').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await expect(page.locator('[data-testid="problem-row"][data-step="fulfil"]').filter({ hasText: 'few-external-retries' })).toBeVisible();
  await expect(page.locator('[data-testid="problem-row"][data-step="create_order"]').filter({ hasText: 'few-external-retries' })).toBeVisible();
});
