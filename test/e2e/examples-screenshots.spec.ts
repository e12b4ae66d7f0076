// The screenshot set of issue 21's "Done when": each of the six examples in the editor and on a
// run page, in both themes, at 1440×900 and at 1280×720 (test-results/screenshots/example-*.png).
// Each picture asserts what it shows (weft-serve.ts's expectLaidOut): the app's frame, and every
// step of the workflow inside the window, unclipped and apart, with the run's state and timeline
// on the run page. One served workspace and one page; the runs are started with the CLI, the
// examples' HTTP calls answered by examples/fake-api.mjs.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appChrome, exampleWorkspace, REPO_ROOT, shootBothThemes, startFakeApi, startServe, weft, type FakeApi, type Served, type Workspace } from './weft-serve.ts';

const EXAMPLES = ['agent-escalation', 'order-payment', 'parallel-research', 'record-update', 'research-review', 'trip-saga'] as const;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

let ws: Workspace;
let served: Served;
let api: FakeApi;
let page: Page;
const runs = new Map<string, string>();

/** The example's first scenario's input, its API pointed at the fake one. */
function inputOf(id: string): unknown {
  const file = JSON.parse(readFileSync(join(REPO_ROOT, `examples/${id}.scenarios.json`), 'utf8')) as { scenarios: { input: Record<string, unknown> }[] };
  const input = file.scenarios[0]?.input ?? {};
  return 'apiBase' in input ? { ...input, apiBase: api.url } : input;
}

function stepIds(id: string): string[] {
  const definition = JSON.parse(readFileSync(join(REPO_ROOT, `examples/${id}.weft.json`), 'utf8')) as { steps: { id: string }[] };
  return definition.steps.map((s) => s.id);
}

const steps = (id: string): Record<string, Locator> => Object.fromEntries(stepIds(id).map((s) => [`step ${s}`, page.getByTestId(`step-node-${s}`)]));

test.beforeAll(async ({ browser }) => {
  ws = exampleWorkspace();
  api = await startFakeApi();
  served = await startServe(ws);
  for (const id of EXAMPLES) {
    const r = await weft(ws, ['run', `${id}.weft.json`, '--input', JSON.stringify(inputOf(id)), '--json']);
    expect(r.stderr, `weft run ${id}`).toBe('');
    runs.set(id, (JSON.parse(r.stdout) as { runId: string }).runId);
  }
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await api?.close();
  ws?.remove();
});

for (const size of SIZES) {
  for (const id of EXAMPLES) {
    test(`${id} in the editor and on a run page, both themes, at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await page.goto(served.address);
      await page.getByTestId(`workflow-row-${id}`).click();
      await expect(page.getByTestId('editor-canvas')).toBeVisible();
      await expect(page.locator('.react-flow__node')).toHaveCount(stepIds(id).length);
      await page.mouse.move(1, 1);
      await shootBothThemes(page, `example-${id}-editor-${size.width}x${size.height}`, { ...appChrome(page), toolbar: page.getByRole('toolbar', { name: 'editor' }), ...steps(id) });

      const runId = runs.get(id) ?? '';
      await page.getByTestId('nav-runs').click();
      await page.getByTestId(`run-row-${runId}`).click();
      await expect(page.getByTestId('run-view')).toBeVisible();
      await expect(page.locator('.tl-row').first()).toBeVisible();
      await page.mouse.move(1, 1);
      await shootBothThemes(page, `example-${id}-run-${size.width}x${size.height}`, { ...appChrome(page), 'run state': page.getByTestId('run-state'), timeline: page.getByTestId('run-timeline'), ...steps(id) });
    });
  }
}
