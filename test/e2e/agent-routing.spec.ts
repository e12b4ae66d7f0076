// Choosing an agent's executor at run time (docs/routing.md), in Debian's chromium against the
// real `weft serve`: a run of a workflow whose agent step has three mock candidates escalates from
// the cheap one (not confident enough), past one whose provider is down (its circuit opens after
// one failure), to the expert. The step detail shows, per attempt, the candidates in the order
// considered, the one chosen and why each other was passed over; the runs page's Providers strip
// shows the open circuit and when it lets a trial call through.
import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleWorkspace, shootBothThemes, startServe, type Served, type Workspace } from './weft-serve.ts';

let ws: Workspace;
let served: Served;

const reply = (confidence: number, answer: string) => ({ output: { answer, confidence }, usage: { inputTokens: 420, outputTokens: 60 } });
const routing = {
  format: 'weft/v1',
  id: 'support-routing',
  version: 1,
  name: 'Support answer on the executor chosen at run time',
  input: { type: 'object', properties: { question: { type: 'string' }, topic: { type: 'string' } } },
  steps: [
    {
      id: 'answer',
      name: 'Answer',
      kind: 'agent',
      input: '{ "question": input.question }',
      config: {
        prompt: 'Answer {{ input.question }} as JSON {answer, confidence}.',
        candidates: [
          { id: 'quick', provider: 'mock', model: 'quick-small', cost: 0.6, tags: ['general'], mock: { replies: [reply(0.35, 'Probably a glitch.')] } },
          { id: 'flaky', provider: 'mock', model: 'flaky-medium', cost: 2, tags: ['general', 'billing'], mock: { replies: [{ error: { code: 'provider_unavailable', message: 'the provider answered 503', status: 503 } }] } },
          { id: 'expert', provider: 'mock', model: 'expert-large', cost: 15, tags: ['general', 'billing', 'legal'], mock: { replies: [reply(0.93, 'The card was authorised twice; the second hold is released within 3 days.')] } },
        ],
        choose: { order: 'cheapest', confidence: { expression: 'output.confidence', below: 0.7 }, matchTags: 'input.topic', circuit: { failures: 1, coolDownMs: 3_600_000 } },
      },
      output: { type: 'object', required: ['answer', 'confidence'] },
      retry: { maxAttempts: 4, initialIntervalMs: 50, jitter: 0 },
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'answered', from: 'answer', to: 'done' }],
};

test.use({ locale: 'en-US', timezoneId: 'Europe/Berlin' });

test.beforeAll(async () => {
  ws = exampleWorkspace();
  writeFileSync(join(ws.dir, 'support-routing.weft.json'), JSON.stringify(routing, null, 2));
  served = await startServe(ws);
});

test.afterAll(async () => {
  await served?.stop();
  ws?.remove();
});

async function api(path: string, init: RequestInit = {}): Promise<unknown> {
  const r = await fetch(`${served.url}${path}`, { ...init, headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' } });
  return r.json();
}

async function runState(runId: string): Promise<string> {
  return ((await api(`/api/runs/${runId}`)) as { run: { state: string } }).run.state;
}

async function openStep(page: Page, runId: string, stepId: string): Promise<void> {
  await page.goto(served.address);
  await page.getByTestId('nav-runs').click();
  await page.getByTestId(`run-row-${runId}`).click();
  await page.getByTestId(`step-node-${stepId}`).click();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', stepId);
}

test('the step detail shows, per attempt, the candidates considered, the one chosen and why; the runs page shows the open circuit', async ({ page }) => {
  const { runId } = (await api('/api/runs', { method: 'POST', body: JSON.stringify({ workflow: 'support-routing', input: { question: 'Why was I charged twice?', topic: 'general' } }) })) as { runId: string };
  await expect.poll(() => runState(runId)).toBe('succeeded');
  await page.setViewportSize({ width: 1440, height: 1200 });
  await openStep(page, runId, 'answer');

  // The latest attempt: the expert, after the cheap one was not confident and the flaky one's circuit opened.
  const route = page.getByTestId('attempt-route');
  await expect(route).toHaveAttribute('data-chosen', 'expert');
  const rows = route.getByTestId('route-candidate');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-candidate', 'quick');
  await expect(rows.nth(0)).toHaveAttribute('data-status', 'low_confidence');
  await expect(rows.nth(0)).toContainText('tried in attempt 1: confidence 0.35 is below 0.7');
  await expect(rows.nth(1)).toHaveAttribute('data-candidate', 'flaky');
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'circuit_open');
  await expect(rows.nth(2)).toHaveAttribute('data-candidate', 'expert');
  await expect(rows.nth(2)).toHaveAttribute('data-status', 'chosen');
  await expect(route.getByTestId('route-reason')).toContainText('Ran on expert');
  await expect(route.getByTestId('route-reason')).toContainText('escalated: its tags match the input (general); the cheapest left (cost 15); passed over quick (confidence too low), flaky (circuit open)');
  await route.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'agent-route-escalated', { route, 'attempt tabs': page.getByTestId('attempt-tab-answer/1.3') });

  // The second attempt: the next cheapest, whose provider was down; the expert a fallback after it.
  await page.getByTestId('attempt-tab-answer/1.2').click();
  await expect(route).toHaveAttribute('data-chosen', 'flaky');
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'chosen');
  await expect(rows.nth(2)).toHaveAttribute('data-status', 'later');
  await expect(page.getByTestId('attempt-detail')).toContainText('provider_unavailable');
  // The first: the cheapest, whose answer was not confident enough.
  await page.getByTestId('attempt-tab-answer/1.1').click();
  await expect(route).toHaveAttribute('data-chosen', 'quick');
  await expect(page.getByTestId('attempt-detail')).toContainText('low_confidence');

  await page.getByTestId('nav-runs').click();
  const panel = page.getByTestId('providers-panel');
  await expect(panel).toBeVisible();
  const flaky = panel.locator('[data-key="mock model flaky-medium"]');
  await expect(flaky).toHaveAttribute('data-state', 'open');
  await expect(flaky.getByTestId('provider-reopens')).toBeVisible();
  await expect(panel.locator('[data-key="mock model expert-large"]')).toHaveAttribute('data-state', 'closed');
  await shootBothThemes(page, 'agent-route-providers', { providers: panel, runs: page.getByTestId('run-list') });
});

test('the editor gives the agent step controls for its candidates and the choose rule', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1200 });
  await page.goto(served.address);
  await page.getByTestId('workflow-row-support-routing').click();
  await expect(page.getByTestId('editor-canvas')).toBeVisible();
  await page.getByTestId('step-node-answer').click();
  const candidates = page.getByTestId('field-config.candidates');
  await expect(candidates).toBeVisible();
  await expect(candidates).toContainText('quick-small');
  await expect(page.getByTestId('field-config.choose.confidence.expression')).toContainText('output.confidence');
  const coolDown = page.getByTestId('field-config.choose.circuit.coolDownMs');
  await coolDown.scrollIntoViewIfNeeded();
  await shootBothThemes(page, 'agent-route-editor', { 'cool-down': coolDown, confidence: page.getByTestId('field-config.choose.confidence.expression') });
});
