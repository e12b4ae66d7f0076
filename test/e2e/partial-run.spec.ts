// A partial attempt on the run page, in Debian's chromium against the real `weft serve`
// (docs/long-running.md#partial-completion): a command imports two of four files and reports
// partial; its automatic retry gets WEFT_PARTIAL and imports the other two. The timeline draws the
// partial attempt striped in its own colour (and the legend names it); the step detail says
// "Partly done", shows the part done as its output and what remained.
import { expect, test } from '@playwright/test';
import { exampleWorkspace, openRunFromList, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';
import { writePartialWorkflow } from './partial-workflow.ts';

let ws: Workspace;
let served: Served;

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writePartialWorkflow(ws);
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});


test('a partial attempt is shown distinctly on the timeline and in the step detail', async ({ page }) => {
  const r = await weft(ws, ['run', 'imports.weft.json', '--json']);
  const { runId, state } = JSON.parse(r.stdout) as { runId: string; state: string };
  expect(state).toBe('succeeded');
  await openRunFromList(page, served, runId);

  const bars = page.locator('.tl-row[data-step="import"] [data-testid="timeline-bar"][data-kind="running"]');
  await expect(bars.first()).toHaveAttribute('data-outcome', 'partial');
  await expect(bars.first()).toHaveAttribute('aria-label', /^running attempt 1, partly done$/);
  await expect(bars.last()).toHaveAttribute('data-outcome', 'succeeded');
  const toggle = page.getByTestId('timeline-legend-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const legend = page.getByTestId('timeline-legend');
  await expect(legend).toContainText('attempt partly done');

  await page.getByTestId('record-step-import').click();
  await page.getByTestId('attempt-tab-import/1.1').click();
  const note = page.getByTestId('attempt-partial');
  await expect(note).toContainText('Partly done');
  await expect(note).toContainText('Attempt import/1.2 continued from it.');
  await expect(page.getByTestId('attempt-remaining')).toContainText('d.csv');
  await expect(page.getByTestId('attempt-output')).toContainText('b.csv');
  await note.scrollIntoViewIfNeeded(); // the step panel scrolls; the picture shows the note whole
  await shootBothThemes(page, 'partial-attempt', { 'the partial bar': bars.first(), 'the note': note, 'the legend': legend });
});
