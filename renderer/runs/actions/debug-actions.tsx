// A debug run paused at a breakpoint: where it paused, Continue and Step, and what each way on
// does in words, Resume included (it sits among the run's actions and, here, does what Continue
// does: debug-words.ts has the engine's meanings). Shown only where the run's permittedActions
// list continue or step; no dialog: both only resume a paused debug run, and the engine records
// who did it.
import { useId, useMemo, useState } from 'react';
import { FastForward, StepForward } from 'lucide-react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import { errorMessage, type RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { defaultActor } from './who.ts';
import { pauseWords } from './debug-words.ts';
import './actions.css';
import './debug.css';

export function DebugActions({ detail, client, onDone }: { detail: RunDetail; client?: RunActionsClient; onDone?(result: RunActionResult): void }) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = useId();
  const run = detail.run;
  const words = pauseWords(run.debug);
  const permitted = (name: 'continue' | 'step') => run.permittedActions.find((p) => p.action === name);
  if (words === null || (permitted('continue') === undefined && permitted('step') === undefined)) return null;
  const act = async (action: 'continue' | 'step') => {
    setBusy(true);
    setError(null);
    try {
      onDone?.(await actions.runAction(run.id, { action, by: defaultActor() }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="debug-paused" role="region" aria-label="debug run paused" data-testid="debug-actions">
      <div className="debug-paused-head">
        <span className="debug-paused-where" data-testid="debug-where">
          {words.where}
        </span>
        <div className="action-bar">
          <button
            type="button"
            className="button button-primary"
            disabled={busy || permitted('continue') === undefined}
            aria-describedby={`${ids}-continue`}
            onClick={() => void act('continue')}
            data-testid="action-continue"
          >
            <FastForward size={13} aria-hidden="true" /> Continue
          </button>
          <button type="button" className="button" disabled={busy || permitted('step') === undefined} aria-describedby={`${ids}-step`} onClick={() => void act('step')} data-testid="action-step">
            <StepForward size={13} aria-hidden="true" /> Step
          </button>
        </div>
      </div>
      <ul className="debug-explain" data-testid="debug-explain">
        <li id={`${ids}-continue`}>
          <b>Continue</b> {words.continue}
        </li>
        <li id={`${ids}-step`}>
          <b>Step</b> {words.step}
        </li>
        <li id={`${ids}-resume`} data-testid="debug-explain-resume">
          <b>Resume</b> {words.resume}
        </li>
      </ul>
      {error !== null ? (
        <span className="action-error" role="alert" data-testid="action-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
