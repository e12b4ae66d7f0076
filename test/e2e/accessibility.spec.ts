// axe-core (WCAG 2.0/2.1 A and AA, and best practice) on the app's pages as people use them, in
// both themes, in Debian's chromium against the real `weft serve` (issue 21, point 8): the
// workflows list, the editor with an example open, the runs list, a failed run, a run waiting for
// a person, the tasks, insights, two runs compared, and the open states that matter (the start
// form, a step's detail on a run). Each page is analysed once its data is shown. No serious or
// critical violation may remain; a failure lists each one with its rule, impact, targets and
// summary. No rule is disabled and no region excluded (docs/accessibility.md).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { writePartialWorkflow } from './partial-workflow.ts';
import { exampleWorkspace, setTheme, startFakeApi, startServe, weft, type FakeApi, type Served, type Theme, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;
let api: FakeApi;
/** One page for the file: the token is read once, each test goes to its page by address. */
let page: Page;
const runs = { booked: '', failed: '', waiting: '', partial: '' };

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const trip = (id: string, carUntil: string) => ({
  apiBase: api.url,
  tripId: id,
  traveller: { name: 'Ada Lovelace', email: 'ada@example.com' },
  flight: { from: 'LHR', to: 'LIS', date: '2026-05-14' },
  hotel: { city: 'Lisbon', checkIn: '2026-05-14', checkOut: '2026-05-18' },
  car: { pickUp: 'LIS', from: '2026-05-14', until: carUntil },
});

async function runId(args: string[], code: number): Promise<string> {
  const r = await weft(ws, [...args, '--json']);
  expect(r.code, r.stderr).toBe(code);
  return (JSON.parse(r.stdout) as { runId: string }).runId;
}

test.beforeAll(async ({ browser }) => {
  ws = exampleWorkspace();
  api = await startFakeApi();
  // A trip booked, one whose car cannot be booked (it fails and compensates), and a research
  // review waiting for a person.
  runs.booked = await runId(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip('T-1', '2026-05-18'))], 3);
  expect((await weft(ws, ['approve', runs.booked, 'traveller_confirms'])).code).toBe(0); // the traveller confirms the quoted price
  runs.failed = await runId(['run', 'trip-saga.weft.json', '--input', JSON.stringify(trip('T-2', '2026-05-10'))], 1);
  runs.waiting = await runId(['run', 'research-review.weft.json', '--input', JSON.stringify({ topic: 'durable workflow engines', audience: 'platform engineers' })], 3);
  // A run whose import finished part of its work first: the partial attempt's colour is text there.
  writePartialWorkflow(ws);
  runs.partial = await runId(['run', 'imports.weft.json'], 0);
  served = await startServe(ws);
  // axe's AxeBuilder needs a page of a context of its own (it opens a blank page there to finish).
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await page.goto(served.address);
});

test.afterAll(async () => {
  await page?.context().close();
  await served?.stop();
  await api?.close();
  ws?.remove();
});

interface Found {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The serious and critical violations axe finds on the page as it is now. */
async function violations(page: Page): Promise<Found[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
}

/** One line per node: rule, impact, target and why, so a failure reads without a debugger. */
function describe(found: Found[]): string {
  return found.flatMap((v) => [`${v.id} (${v.impact}): ${v.help}`, ...v.nodes.map((n) => `  ${n.target}\n    ${n.summary}`)]).join('\n');
}

/** Analyses the page in both themes; returns a readable list of what is wrong, empty when nothing is. */
async function checkBothThemes(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const theme of ['light', 'dark'] as Theme[]) {
    await setTheme(page, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const found = await violations(page);
    if (found.length > 0) problems.push(`${name}, ${theme}: ${found.reduce((n, v) => n + v.nodes.length, 0)} nodes\n${describe(found)}`);
  }
  await setTheme(page, 'light');
  return problems;
}

/** Analyses the page in both themes and fails with a readable list of what is wrong. */
async function expectNoSeriousViolation(name: string): Promise<void> {
  const problems = await checkBothThemes(page, name);
  expect(problems.join('\n\n'), `axe: serious or critical violations on ${name}`).toBe('');
}

test('workflows', async () => {
  await page.goto(`${served.url}/#/workflows`);
  await expect(page.getByTestId('workflow-row-trip-saga')).toBeVisible();
  await expect(page.getByTestId('workflow-row-research-review')).toBeVisible();
  await expectNoSeriousViolation('workflows');
});

test('the editor with an example open', async () => {
  await page.goto(`${served.url}/#/workflow/trip-saga`);
  await expect(page.getByTestId('step-node-book_car')).toBeVisible();
  await expectNoSeriousViolation('editor');
});

test('the editor, a step selected', async () => {
  await page.goto(`${served.url}/#/workflow/trip-saga`);
  await page.getByTestId('step-node-book_car').click();
  await expect(page.getByTestId('step-inspector')).toBeVisible();
  await expectNoSeriousViolation('editor, a step selected');
});

test('runs', async () => {
  await page.goto(`${served.url}/#/runs`);
  await expect(page.getByTestId(`run-row-${runs.waiting}`)).toBeVisible();
  await expect(page.getByTestId(`run-row-${runs.failed}`)).toBeVisible();
  await expectNoSeriousViolation('runs');
});

test('runs, the start form open', async () => {
  await page.goto(`${served.url}/#/runs`);
  await page.getByTestId('action-start-run').click();
  await page.getByTestId('start-workflow-research-review').click();
  await expect(page.getByTestId('dialog-start-run')).toBeVisible();
  await expectNoSeriousViolation('runs, the start form open');
});

test('a failed run', async () => {
  await page.goto(`${served.url}/#/run/${runs.failed}`);
  await expect(page.getByTestId('run-state')).toHaveText('failed');
  await expect(page.getByTestId('step-node-book_car')).toBeVisible();
  await expectNoSeriousViolation('a failed run');
});

test('a failed run, its failed step selected', async () => {
  await page.goto(`${served.url}/#/run/${runs.failed}`);
  await page.getByTestId('step-node-book_car').click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', 'book_car');
  await expectNoSeriousViolation('a failed run, its failed step selected');
});

test('a waiting run', async () => {
  await page.goto(`${served.url}/#/run/${runs.waiting}`);
  await expect(page.getByTestId('step-state-review')).toHaveText(/waiting/);
  await expectNoSeriousViolation('a waiting run');
});

test('tasks', async () => {
  await page.goto(`${served.url}/#/tasks`);
  await expect(page.getByTestId(`task-${runs.waiting}-review`)).toBeVisible();
  await expectNoSeriousViolation('tasks');
});

test('insights', async () => {
  await page.goto(`${served.url}/#/insights/trip-saga`);
  await expect(page.getByTestId('insights-runs')).toHaveText('2');
  await expect(page.locator('.recharts-line').first()).toBeVisible();
  await expectNoSeriousViolation('insights');
});

test('compare', async () => {
  await page.goto(`${served.url}/#/compare/${runs.booked}/${runs.failed}`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('first-difference')).toBeVisible();
  await expectNoSeriousViolation('compare');
});

test('a run with a partial attempt, that attempt open', async () => {
  await page.goto(`${served.url}/#/run/${runs.partial}`);
  await expect(page.getByTestId('run-state')).toHaveText('succeeded');
  const toggle = page.getByTestId('timeline-legend-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.getByTestId('timeline-legend')).toContainText('attempt partly done');
  await page.getByTestId('record-step-import').click();
  await page.getByTestId('attempt-tab-import/1.1').click();
  await expect(page.getByTestId('attempt-partial')).toContainText('Partly done');
  // The pointer off the step list, so no row is analysed as hovered.
  await page.mouse.move(0, 0);
  await expectNoSeriousViolation('a run with a partial attempt, that attempt open');
});
