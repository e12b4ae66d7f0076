// A waiting step's revalidate check in the editor's inspector, in Debian's chromium against the real
// `weft serve` on a copy of examples/ (docs/long-running.md, "Revalidation on resume"): a check
// added to research-review's review is saved into the file with its wait and description; the
// validator's findings show on the check's field (a syntax error, a step that does not exist) and
// in the section (no edge follows "stale"); removing the check removes it from the file. trip-saga's
// check is shown as declared. A `revalidate.fetch` is shown read-only and kept byte for byte when
// the other fields change. Screenshots in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, openEditor, shootBothThemes, startServe, typeCode, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

/** The read the check runs first, as section A of issue 24 adds it to the format. */
const FETCH = { kind: 'http', config: { method: 'GET', url: '{{ input.apiBase }}/quotes/{{ input.tripId }}' }, timeoutMs: 5000 };

test.beforeAll(async () => {
  ws = exampleWorkspace();
  // A check on a step that never waits, so never resumes: the validator says so in the section.
  writeFileSync(join(ws.dir, 'misplaced-check.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'misplaced-check', version: 1, name: 'A check where none can run',
    steps: [{ id: 'shape', kind: 'transform', config: { expression: '1' }, revalidate: { check: 'true' } }, { id: 'done', kind: 'end' }],
    edges: [{ id: 'shaped', from: 'shape', to: 'done' }],
  }, null, 2));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';
const node = (page: Page, id: string): Locator => page.getByTestId(`step-node-${id}`);
type Flow = { steps: Array<{ id: string; revalidate?: Record<string, unknown> }> };
const flowOf = (file: string): Flow => JSON.parse(readFileSync(join(ws.dir, file), 'utf8')) as Flow;
const stepOf = (file: string, id: string) => flowOf(file).steps.find((s) => s.id === id);

async function openRevalidation(page: Page, workflow: string, stepId: string): Promise<Locator> {
  await openEditor(page, served, workflow);
  await node(page, stepId).click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  const section = page.locator('[data-section="revalidation"]');
  if ((await section.getAttribute('data-open')) !== 'true') await page.getByTestId('section-revalidation').click();
  await expect(section).toHaveAttribute('data-open', 'true');
  await showWhole(section);
  return section;
}

/** Scrolls the inspector so the whole section shows (its end at the panel's end, when it is the last). */
const showWhole = (section: Locator): Promise<void> =>
  section.evaluate((el) => (el as unknown as { scrollIntoView(options: { block: string }): void }).scrollIntoView({ block: 'end' }));

async function save(page: Page): Promise<void> {
  await page.keyboard.press(`${MOD}+s`);
  await expect(page.getByTestId('save-status')).toContainText('Saved');
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
}

test('a check added in the inspector is saved with its wait and description; its problems show on the field', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const section = await openRevalidation(page, 'research-review', 'review');
  await expect(section.getByTestId('revalidate-add')).toBeVisible();
  await expect(section).toContainText('No check.');
  await shootBothThemes(page, 'editor-revalidation-empty', { ...appChrome(page), 'the empty section': section });

  await section.getByTestId('revalidate-add').click();
  await expect(page.getByTestId('field-revalidate.check-input')).toBeFocused();
  // The wait and the description belong to a check: they come with it.
  await expect(page.getByTestId('field-revalidate.afterMs')).toHaveCount(0);

  const check = page.getByTestId('field-revalidate.check');
  // The check reads the step's own new output (the decision), so completion offers it.
  await page.keyboard.type('outp');
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('output');
  await page.keyboard.press('Escape');
  await typeCode(page, 'field-revalidate.check', '$millis() - $toMillis(run.startedAt) < 604800000');
  await page.getByTestId('field-revalidate.afterMs').fill('1d');
  await page.getByTestId('field-revalidate.description').fill('the research is at most a week old');
  // Nothing follows "stale" from review yet: the section says so, with how to fix it.
  await expect(section.getByTestId('revalidate-finding-unhandled-stale')).toContainText('no edge follows "stale"');
  await expect(check.locator('.cm-lintRange-error')).toHaveCount(0);
  await save(page);
  expect(stepOf('research-review.weft.json', 'review')?.revalidate).toEqual({
    check: '$millis() - $toMillis(run.startedAt) < 604800000',
    afterMs: 86_400_000,
    description: 'the research is at most a week old',
  });
  await showWhole(section);
  await shootBothThemes(page, 'editor-revalidation-set', { ...appChrome(page), 'the section': section, 'the check': check });

  // A check that does not parse: underlined in the field, listed in Problems.
  await typeCode(page, 'field-revalidate.check', '$waitedMs <');
  await expect(page.locator('[data-testid="problem-row"][data-code="expression-syntax"][data-step="review"]')).toBeVisible();
  await expect(check.locator('.cm-lintRange-error').first()).toBeVisible();
  // A check reading a step that does not exist: the validator's finding, on the field.
  await typeCode(page, 'field-revalidate.check', 'steps.no_such_step.output.ok');
  const row = page.locator('[data-testid="problem-row"][data-code="unknown-step-reference"][data-step="review"]');
  await expect(row).toBeVisible();
  const range = check.locator('.cm-lintRange-error');
  await expect(range).toHaveCount(1);
  await range.hover();
  await expect(page.locator('.cm-tooltip-lint')).toContainText('unknown-step-reference');
  await shootBothThemes(page, 'editor-revalidation-problem', { ...appChrome(page), 'the check with its problem': check, 'the problem': row });

  // From the problem to the field, from another step with the section closed.
  await page.getByTestId('section-revalidation').click();
  await node(page, 'draft').click();
  await row.click();
  await expect(page.getByTestId('field-revalidate.check-input')).toBeFocused();

  // Removing the check removes it from the file.
  await typeCode(page, 'field-revalidate.check', '$waitedMs < 604800000');
  await expect(row).toHaveCount(0);
  await page.getByTestId('revalidate-remove').click();
  await expect(page.getByTestId('revalidate-add')).toBeVisible();
  await save(page);
  expect(stepOf('research-review.weft.json', 'review')).not.toHaveProperty('revalidate');
});

test('a declared check shows as declared; the section is on steps that wait, or that declare a check where none can run', async ({ page }) => {
  const section = await openRevalidation(page, 'trip-saga', 'traveller_confirms');
  await expect(page.getByTestId('field-revalidate.check')).toContainText('$millis() <= $toMillis(steps.quote_trip.output.body.heldUntil)');
  await expect(page.getByTestId('field-revalidate.afterMs')).toHaveValue('1h');
  await expect(section.getByTestId('revalidate-finding-unhandled-stale')).toHaveCount(0);
  await page.getByTestId('section-revalidation').click();
  await expect(section.locator('.ins-section-summary')).toHaveText('after 1h');
  await node(page, 'book_car').click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  await expect(page.locator('[data-section="revalidation"]')).toHaveCount(0);

  const misplaced = await openRevalidation(page, 'misplaced-check', 'shape');
  await expect(misplaced.getByTestId('revalidate-finding-revalidate-not-waiting')).toContainText('only a step that waits (human, event, wait) resumes');
  await expect(page.getByTestId('field-revalidate.check')).toContainText('true');
});

test('a revalidate fetch is shown read-only and kept as it is when the check is edited', async ({ page }) => {
  const file = join(ws.dir, 'trip-saga.weft.json');
  const flow = JSON.parse(readFileSync(file, 'utf8')) as Flow;
  const confirms = flow.steps.find((s) => s.id === 'traveller_confirms');
  if (confirms?.revalidate === undefined) throw new Error('trip-saga lost its revalidate check');
  confirms.revalidate['fetch'] = FETCH;
  writeFileSync(file, JSON.stringify(flow, null, 2));

  const section = await openRevalidation(page, 'trip-saga', 'traveller_confirms');
  const fetch = page.getByTestId('field-revalidate.fetch');
  await expect(fetch).toContainText('"method": "GET"');
  await expect(fetch.locator('.cm-content')).toHaveAttribute('contenteditable', 'false');
  await page.getByTestId('field-revalidate.description').fill('the quoted total still holds, as the supplier says');
  await save(page);
  expect(stepOf('trip-saga.weft.json', 'traveller_confirms')?.revalidate).toMatchObject({ fetch: FETCH, description: 'the quoted total still holds, as the supplier says' });
  await shootBothThemes(page, 'editor-revalidation-fetch', { ...appChrome(page), 'the section': section, 'the fetch': fetch });
});
