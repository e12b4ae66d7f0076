// The run header's "failed at": the step that went wrong (the one the page opens at, wrong-step.ts)
// and what happened there (its error's code), then the end step the failure led to; the error's
// message and the engine's own reason on hover.
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { isFinishedRunState } from '../../../shared/definition/names.ts';
import { wrongStep } from './wrong-step.ts';

export function RunFailing({ detail }: { detail: RunDetail }) {
  const wrong = wrongStep(detail);
  const failing = detail.run.failing;
  if (wrong === null || failing === null) return null;
  return (
    <span className="run-failing" data-testid="run-failing" title={[wrong.more, `the engine: ${failing.reason}`].filter((t) => t !== '').join('\n')}>
      {isFinishedRunState(detail.run.state) ? 'failed at' : 'failing at'} <span className="mono">{wrong.stepId}</span> ({wrong.what})
      {wrong.ledTo !== null ? (
        <>
          {' '}
          · then reached <span className="mono">{wrong.ledTo}</span>
        </>
      ) : null}
    </span>
  );
}
