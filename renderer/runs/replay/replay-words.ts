// How the app says a replay's verdict (docs/evolution.md, "Verdicts"): a short word for the badge
// and a sentence that says what it means for this run, in the terms the person asked in: would the
// other definition have saved the run, and what else does it change.
import type { ReplayResult, ReplayVerdict } from '../../../shared/api/replay-result.ts';

export const VERDICT_LABEL: Record<ReplayVerdict, string> = {
  same: 'same',
  fixed: 'fixed',
  changed: 'changed',
  regressed: 'regressed',
  incomplete: 'incomplete',
};

const state = (s: string): string => s.replace('_', ' ');

/** The sentence under the verdict: what the replay says about the run. */
export function verdictSentence(r: Pick<ReplayResult, 'verdict' | 'sourceState' | 'replayState' | 'needsRecording'>): string {
  switch (r.verdict) {
    case 'same':
      return r.sourceState === 'succeeded'
        ? 'The other definition does what this run did: the same path, outcomes and outputs.'
        : `The other definition ends this run the same way (${state(r.replayState)}), at the same step with the same outputs: it would not have saved it.`;
    case 'fixed':
      return `This run ended ${state(r.sourceState)}; with the same recorded answers, the other definition ends it succeeded.`;
    case 'changed':
      return r.replayState === 'succeeded'
        ? 'Both succeed, but the other definition takes another path or gives other outputs: see the first difference.'
        : `Still not succeeded (${state(r.replayState)}), but differently: see the first difference.`;
    case 'regressed':
      return `This run succeeded; on the other definition it ends ${state(r.replayState)}.`;
    case 'incomplete': {
      const n = r.needsRecording;
      return n === undefined ? 'The replay stopped: a call had no recording.' : `The replay stopped at ${n.stepId}: it needs a recording (${n.reason}). ${n.why}`;
    }
  }
}
