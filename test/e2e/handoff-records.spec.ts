// Handoff records on the run page (docs/long-running.md, "Handoff records"), in Debian's chromium
// against the real `weft serve` on a copy of examples/: a research-review run hands off from
// research to draft. The run graph marks the edge between them "handoff"; draft's detail shows
// "Handoff from research" (the record its attempt received: what was completed, what to do next,
// the constraints, the references), whose step link selects research; research's detail shows
// "Handoff to draft", the record it gave. Both themes are photographed.
import { expect, test } from '@playwright/test';
import { appChrome, exampleWorkspace, openRunFromList, type Served, shootBothThemes, startServe, weft, type Workspace } from './weft-serve.ts';

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


test('a handoff between research and draft: marked on the edge, shown in both steps\' details', async ({ page }) => {
  const r = await weft(ws, ['run', 'research-review.weft.json', '--input', JSON.stringify({ topic: 'durable workflow engines', audience: 'platform engineers' }), '--json']);
  expect(r.stderr).toBe('');
  const runId = (JSON.parse(r.stdout) as { runId: string }).runId;
  await openRunFromList(page, served, runId);
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);

  // The edge research → draft carries the handoff; the other edges do not.
  await expect(page.getByTestId('edge-handoff-research_to_draft')).toHaveText('handoff');
  await expect(page.getByTestId('edge-handoff-draft_to_review')).toHaveCount(0);

  await page.getByTestId('step-node-draft').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'draft');
  const card = page.getByTestId('handoff-from');
  await expect(card).toContainText('Handoff from');
  await expect(card.getByTestId('handoff-next')).toContainText('Write the article from the summary; explain why a restarted worker resumes instead of repeating work.');
  await expect(card.getByTestId('handoff-completed').locator('li')).toHaveText(['Collected the key facts on durable execution', 'Checked two sources']);
  await expect(card.getByTestId('handoff-constraints').locator('li')).toHaveText(['Use only the facts in the summary', 'Cite a source for every claim']);
  await expect(card.getByTestId('handoff-refs').getByRole('link', { name: /Designing durable workflows/ })).toHaveAttribute('href', 'https://example.org/durable-workflows');
  // The receiving step's own input holds the record too (the attempt's input, as recorded).
  await expect(page.getByTestId('attempt-input')).toContainText('handoff');
  await expect(page.getByTestId('handoff-to')).toHaveCount(0);
  await card.scrollIntoViewIfNeeded(); // the step panel scrolls; the picture shows the card whole
  await shootBothThemes(page, 'handoff-from-research', {
    ...appChrome(page),
    'run state': page.getByTestId('run-state'),
    'the handoff on the edge': page.getByTestId('edge-handoff-research_to_draft'),
    'draft on the graph': page.getByTestId('step-node-draft'),
    'the handoff card': card,
  });

  // One click to the giving step: its detail shows the record it gave, and to whom.
  await card.getByTestId('handoff-step-research').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'research');
  const given = page.getByTestId('handoff-to');
  await expect(given).toContainText('Handoff to');
  await expect(given.getByTestId('handoff-step-draft')).toBeVisible();
  await expect(given.getByTestId('handoff-next')).toContainText('Write the article from the summary');
  await expect(page.getByTestId('handoff-from')).toHaveCount(0);
  await shootBothThemes(page, 'handoff-to-draft', {
    ...appChrome(page),
    'research on the graph': page.getByTestId('step-node-research'),
    'the handoff card': given,
  });
  await given.getByTestId('handoff-step-draft').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'draft');
  // Close up, the edge's chip reads "handoff" between the two steps.
  const edge = page.getByTestId('edge-handoff-research_to_draft');
  const at = await edge.boundingBox();
  if (at === null) throw new Error('the handoff chip has no box');
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
  await expect(edge).toBeInViewport();
  await page.locator('.react-flow').screenshot({ path: 'test-results/screenshots/handoff-edge.png' });
});
