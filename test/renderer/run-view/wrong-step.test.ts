// The step that went wrong, which the run page opens at and its header names: the step that
// failed, not the end step its failure route led to (issue 21, point 7).
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { wrongStep } from '../../../renderer/runs/run-view/wrong-step.ts';

type Step = RunDetail['steps'][number];
const step = (id: string, state: string, more: Partial<Step> = {}): Step => ({ id, state, escalated: false, attempts: [], ...more }) as unknown as Step;
const detail = (failing: { stepId: string; reason: string } | null, steps: Step[]) => ({ run: { failing } as RunDetail['run'], steps });
const failedAttempt = { error: { code: 'http_500', message: 'PUT /records/A17 answered 500' } } as unknown as Step['attempts'][number];

describe('wrongStep', () => {
  it('names the step that failed, and the end step its failure led to', () => {
    const d = detail({ stepId: 'write_failed', reason: 'reached end step "write_failed" (status failed)' }, [
      step('validate', 'succeeded'),
      step('write', 'failed', { attempts: [failedAttempt] }),
      step('write_failed', 'succeeded'),
    ]);
    expect(wrongStep(d)).toEqual({ stepId: 'write', what: 'failed: http_500', more: 'PUT /records/A17 answered 500', ledTo: 'write_failed' });
  });

  it('names the failing step itself when nothing before it went wrong', () => {
    const d = detail({ stepId: 'charge', reason: 'step "charge" failed (boom) and no edge or escalation handles it' }, [step('charge', 'failed')]);
    expect(wrongStep(d)).toEqual({ stepId: 'charge', what: 'failed', more: 'step "charge" failed (boom) and no edge or escalation handles it', ledTo: null });
  });

  it('names an unknown outcome or a step waiting on a person, and nothing for a run where nothing went wrong', () => {
    expect(wrongStep(detail(null, [step('write', 'unknown')]))?.what).toBe('outcome unknown');
    expect(wrongStep(detail(null, [step('review', 'waiting', { escalated: true })]))?.what).toBe('needs a person');
    expect(wrongStep(detail(null, [step('a', 'succeeded'), step('b', 'running')]))).toBeNull();
  });
});
