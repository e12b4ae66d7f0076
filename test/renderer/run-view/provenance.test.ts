// Provenance on a real run: research-review on the real engine, the first draft rejected with a
// reason; the redraft's input fields trace back to the attempts whose evidence the run holds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioFile } from '../../../shared/scenario/scenario-schema.ts';
import { foldEvents } from '../../../shared/run/fold-events.ts';
import { runDetail } from '../../../shared/run/run-detail.ts';
import { analyzeHandoffs } from '../../../shared/validator/handoffs/analyze-handoffs.ts';
import { runScenario } from '../../../engine/scenario/run-scenario.ts';
import { openDatabase } from '../../../engine/store/open-database.ts';
import { Store } from '../../../engine/store/store.ts';
import { parseWorkflow } from '../../engine/harness.ts';
import { handoffsOf, provenanceOf } from '../../../renderer/runs/run-view/provenance.ts';

const examples = join(import.meta.dirname, '..', '..', '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'weft-provenance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('provenance of a step input', () => {
  it('traces each field the redraft reads to the run input or the attempt whose evidence holds it', async () => {
    const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, 'research-review.weft.json'), 'utf8')));
    const scenario = ScenarioFile.parse(JSON.parse(readFileSync(join(examples, 'research-review.scenarios.json'), 'utf8'))).scenarios.find((s) => s.name.startsWith('the editor rejects the first draft'));
    if (scenario === undefined) throw new Error('the rejection scenario is gone');
    const dbPath = join(tmp, 'rr.db');
    const result = await runScenario(workflow, scenario, { dbPath });
    expect(result.passed).toBe(true);
    const conn = openDatabase(dbPath);
    const store = new Store(conn);
    const [runId] = store.loggedRunIds();
    if (runId === undefined) throw new Error('no run');
    const detail = runDetail(foldEvents(workflow, store.readEvents(runId)));
    conn.close();

    const entries = provenanceOf(workflow, analyzeHandoffs(workflow), detail, 'redraft');
    const feedback = entries.find((e) => e.field.startsWith('steps.feedback.output'));
    const feedbackStep = detail.steps.find((s) => s.id === 'feedback');
    expect(feedback?.source).toEqual({ kind: 'step', stepId: 'feedback', attemptId: feedbackStep?.evidence?.attempt, evidenceId: feedbackStep?.evidence?.id, state: 'succeeded' });
    expect(feedbackStep?.evidence?.attempt).toMatch(/^feedback\//);
    expect(entries.some((e) => e.source.kind === 'step' && e.source.stepId === 'draft')).toBe(true);
    // The reason the editor gave reached the redraft's resolved input.
    const redraft = detail.steps.find((s) => s.id === 'redraft');
    expect(JSON.stringify(redraft?.attempts[0]?.input)).toContain('reason');
    // Reads of the step's outgoing conditions are not its input's provenance.
    expect(entries.every((e) => e.where !== 'step')).toBe(true);
    expect(provenanceOf(workflow, analyzeHandoffs(workflow), detail, 'no_such_step')).toEqual([]);
    // The step detail analyses only the step it shows, once per definition and step: the same entries.
    for (const step of workflow.steps) {
      expect(provenanceOf(workflow, handoffsOf(workflow, step.id), detail, step.id)).toEqual(provenanceOf(workflow, analyzeHandoffs(workflow), detail, step.id));
      expect(handoffsOf(workflow, step.id)).toBe(handoffsOf(workflow, step.id));
    }
  });

  it('names the run input as the source of the first step’s fields, in its input and its prompt', async () => {
    const workflow = parseWorkflow(JSON.parse(readFileSync(join(examples, 'research-review.weft.json'), 'utf8')));
    const entries = provenanceOf(workflow, analyzeHandoffs(workflow), { steps: [] }, 'research');
    expect(entries.map((e) => [e.field, e.source.kind, e.where])).toEqual([
      ['input.topic', 'input', 'input'],
      ['input.audience', 'input', 'input'],
      ['input.topic', 'input', 'config.prompt'],
      ['input.audience', 'input', 'config.prompt'],
    ]);
  });
});
