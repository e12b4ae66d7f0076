// A debug run paused at a breakpoint: continue (run on, this breakpoint passed) or step (run on
// and pause before the next step that starts). Shown only where the run's permittedActions list
// them; no dialog: both only resume a paused debug run, and the engine records who did it.
import { useMemo, useState } from 'react';
import { FastForward, StepForward } from 'lucide-react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunActionResult } from '../../../shared/api/run-action.ts';
import { errorMessage, type RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { defaultActor } from './who.ts';

export function DebugActions({ detail, client, onDone }: { detail: RunDetail; client?: RunActionsClient; onDone?(result: RunActionResult): void }) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = detail.run;
  const permitted = (name: 'continue' | 'step') => run.permittedActions.find((p) => p.action === name);
  if (permitted('continue') === undefined && permitted('step') === undefined) return null;
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
    <div className="action-bar" aria-label="debug" data-testid="debug-actions">
      <button type="button" className="button button-primary" disabled={busy || permitted('continue') === undefined} title={permitted('continue')?.why} onClick={() => void act('continue')} data-testid="action-continue">
        <FastForward size={13} aria-hidden="true" /> Continue
      </button>
      <button type="button" className="button" disabled={busy || permitted('step') === undefined} title={permitted('step')?.why} onClick={() => void act('step')} data-testid="action-step">
        <StepForward size={13} aria-hidden="true" /> Step
      </button>
      {error !== null ? (
        <span className="action-error" role="alert" data-testid="action-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
