// Evidence reuse alone: a step about to start its first attempt in a later input revision, its
// earlier evidence and unknowns in; reuse, carry the unknown, hold for a person, or run, as the
// data of the events the scheduler writes.
import { describe, expect, it } from 'vitest';
import { planReuse, reusedEvidence } from '../../../engine/runtime/evidence-reuse.ts';
import type { Evidence } from '../../../shared/run/run-model.ts';
import { end } from '../harness.ts';
import { plainRun } from './plain-run.ts';

const flow = (extra: Record<string, unknown> = {}) => {
  const p = plainRun([{ id: 'quote', kind: 'command', config: { argv: ['q'] }, effect: 'external', onExhausted: 'escalate', ...extra }, end()], [{ id: 'a', from: 'quote', to: 'done' }]);
  const ev: Evidence = { id: 'quote/1.1', stepId: 'quote', activation: 1, attempt: 1, output: { price: 3 }, covers: { inputHash: 'h1', definitionVersion: 1, inputRevision: 1 }, satisfies: true, fromRun: p.run.runId };
  p.run.evidence.set(ev.id, ev);
  p.run.evidenceByStep.set('quote', [ev]);
  p.run.inputRevision = 2;
  Object.assign(p.s('quote'), { activation: 2, actedRevision: 1 });
  return { ...p, ev };
};

describe('planReuse', () => {
  it('runs on a first pass', () => {
    const p = flow();
    p.run.inputRevision = 1;
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toEqual({ kind: 'run' });
  });

  it('reuses evidence whose input is unchanged, covering the new revision', () => {
    const p = flow();
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toEqual({
      kind: 'reuse',
      reused: { evidenceId: 'quote/1.1', output: { price: 3 }, covers: { inputHash: 'h1', definitionVersion: 1, inputRevision: 2 }, from: { runId: 'r-plain', activation: 1, attempt: 1 } },
      reason: 'input unchanged: evidence quote/1.1 (revision 1) still covers it',
      settleReason: 'evidence quote/1.1 reused',
      evidenceId: 'quote/1.1',
    });
  });

  it('holds an external step whose input changed after its effect for a person, or keeps its evidence (onRevise keep)', () => {
    expect(planReuse(flow().run, flow().step('quote'), flow().s('quote'), 'h2', { n: 2 })).toMatchObject({ kind: 'ask', held: { evidenceId: 'quote/1.1', inputHash: 'h2', input: { n: 2 } } });
    const keep = flow({ onRevise: 'keep' });
    expect(planReuse(keep.run, keep.step('quote'), keep.s('quote'), 'h2', { n: 2 })).toMatchObject({ kind: 'reuse', evidenceId: 'quote/1.1' });
    const rerun = flow({ onRevise: 'rerun' });
    expect(planReuse(rerun.run, rerun.step('quote'), rerun.s('quote'), 'h2', { n: 2 })).toEqual({ kind: 'run' });
  });

  it('carries an unknown outcome of the same external effect instead of repeating it', () => {
    const p = flow();
    p.run.evidenceByStep.set('quote', []);
    p.run.unknowns.push({ stepId: 'quote', inputHash: 'h1', inputRevision: 1, fromRun: 'r-plain', activation: 1, attempt: 2 });
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toEqual({
      kind: 'carry',
      carried: { outcome: 'unknown', fromActivation: 1, attempt: 2 },
      reason: 'attempt quote/1.2 with the same input has an unknown outcome; it is not repeated',
      settleReason: 'outcome of the same external effect is unknown',
    });
  });

  it('after an operator\'s re-decision (reopened), an external step reuses its evidence of an earlier activation of the same revision, and a step with no effect runs again', () => {
    const p = flow();
    p.run.inputRevision = 1;
    Object.assign(p.s('quote'), { activation: 2, actedRevision: 1, reopened: { seq: 9, activation: 1 } });
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toMatchObject({ kind: 'reuse', evidenceId: 'quote/1.1', reason: 'input unchanged: evidence quote/1.1 (revision 1) still covers it, so its effect is not repeated' });
    // Its input changed: the effect happened, so a person decides (onRevise ask, the default for external).
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h2', {})).toMatchObject({ kind: 'ask' });
    // Without the mark (a loop pass, an operator's retry of the step itself) it runs.
    p.s('quote').reopened = null;
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toEqual({ kind: 'run' });
    const none = plainRun([{ id: 'quote', kind: 'command', config: { argv: ['q'] } }, end()], [{ id: 'a', from: 'quote', to: 'done' }]);
    none.run.evidence.set(p.ev.id, p.ev);
    none.run.evidenceByStep.set('quote', [p.ev]);
    Object.assign(none.s('quote'), { activation: 2, reopened: { seq: 9, activation: 1 } });
    expect(planReuse(none.run, none.step('quote'), none.s('quote'), 'h1', {})).toEqual({ kind: 'run' });
  });

  it('never counts evidence whose effect a compensation undid: onRevise ask holds the step, rerun and keep run it', () => {
    const p = flow();
    p.ev.offsetBy = 'cancel_quote';
    expect(planReuse(p.run, p.step('quote'), p.s('quote'), 'h1', {})).toMatchObject({ kind: 'ask', reason: expect.stringContaining('its earlier effect was undone by a compensation: evidence quote/1.1 (revision 1) was offset by "cancel_quote"') });
    for (const policy of ['rerun', 'keep']) {
      const q = flow({ onRevise: policy });
      q.ev.offsetBy = 'cancel_quote';
      expect(planReuse(q.run, q.step('quote'), q.s('quote'), 'h1', {})).toEqual({ kind: 'run' });
    }
  });

  it('gives kept evidence the current revision', () => {
    expect(reusedEvidence(flow().ev, 5).covers).toEqual({ inputHash: 'h1', definitionVersion: 1, inputRevision: 5 });
  });
});
