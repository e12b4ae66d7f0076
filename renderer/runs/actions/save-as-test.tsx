// "Save as test" on the run page (docs/evolution.md, "A run becomes a test"): saves the scenario
// made from a run that has ended beside its workflow (NAME.scenarios/from-run-RUN.json, where
// `weft test` finds it) and says where, with the scenario's JSON to see and copy. Enabled only for
// a run that has ended and is not a fork, as the engine's rules say; a refusal (saved before, no
// workflow file) is shown in the engine's words, and the JSON can still be copied.
import { useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { AlertTriangle, Check, Copy, FlaskConical } from 'lucide-react';
import { isFinishedRunState } from '../../../shared/definition/names.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { SavedRunScenario } from '../../../shared/api/run-scenario.ts';
import { errorMessage, type RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { FormModal } from '../../core/form-modal.tsx';
import { ModalHead } from '../../core/modal-head.tsx';
import './actions.css';

export interface SaveAsTestProps {
  detail: RunDetail;
  /** Defaults to a client with the session's token. */
  client?: RunActionsClient;
  /** The run page's Test menu: the trigger is a menu item drawn there (the dialog stays here, so closing the menu keeps it). */
  menu?: { element: HTMLElement; onPick(): void };
}

/** Why the run cannot become a test yet, or null when it can. */
function notSavable(detail: RunDetail): string | null {
  const run = detail.run;
  if (!isFinishedRunState(run.state)) return `The run is ${run.state.replace('_', ' ')}: a test is made from a run that has ended`;
  if (run.forkOf !== null) return `A fork: make the test from run ${run.forkOf.runId}`;
  return null;
}

export function SaveAsTest({ detail, client, menu }: SaveAsTestProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<SavedRunScenario | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [json, setJson] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = detail.run;
  const why = notSavable(detail);

  const save = async () => {
    setOpen(true);
    setBusy(true);
    setSaved(null);
    setError(null);
    setJson(null);
    setNote(null);
    try {
      setSaved(await actions.saveRunScenario(run.id));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const scenarioText = async (): Promise<string> => {
    if (json !== null) return json;
    const view = await actions.runScenario(run.id);
    const text = `${JSON.stringify(view.file, null, 2)}\n`;
    setJson(text);
    return text;
  };
  const show = () => void scenarioText().catch((e: unknown) => setNote(`could not read the scenario: ${errorMessage(e)}`));
  const copy = () =>
    void scenarioText().then(
      (text) => navigator.clipboard.writeText(text).then(() => setNote('copied the scenario JSON'), () => setNote('could not copy: the browser refused the clipboard')),
      (e: unknown) => setNote(`could not read the scenario: ${errorMessage(e)}`),
    );

  return (
    <>
      {menu === undefined ? (
        <button type="button" className="button" disabled={why !== null} title={why ?? 'Save this run as a scenario test beside its workflow'} onClick={() => void save()} data-testid="save-as-test">
          <FlaskConical size={13} aria-hidden="true" /> Save as test
        </button>
      ) : (
        createPortal(
          <button type="button" role="menuitem" disabled={why !== null} title={why ?? 'Save this run as a scenario test beside its workflow'} onClick={() => { menu.onPick(); void save(); }} data-testid="save-as-test">
            <FlaskConical size={14} aria-hidden="true" /> Save as test
          </button>,
          menu.element,
        )
      )}
      {open ? (
        <FormModal label="Save as test" testId="dialog-save-as-test" className="action-dialog save-test-dialog" onClose={() => setOpen(false)} onSubmit={() => setOpen(false)}>
          <ModalHead
            title="Save as test"
            subject={
              <>
                <span className="mono">{run.id}</span> · {run.workflowId} v{run.version} · {run.state.replace('_', ' ')}
              </>
            }
            onClose={() => setOpen(false)}
          />
          {busy ? <p className="muted">Saving…</p> : null}
          {saved !== null ? (
            <div className="save-test-where" data-testid="save-test-saved">
              <Check size={14} aria-hidden="true" />
              <div>
                <p>
                  Saved as <span className="mono">{saved.file}</span>
                </p>
                <p className="muted">
                  Run it with <span className="mono">weft test {saved.workflowFile}</span>: against this version it passes; against a changed workflow it shows what the change does to this run.
                </p>
              </div>
            </div>
          ) : null}
          {error !== null ? (
            <div className="action-error" role="alert" data-testid="save-test-error">
              <AlertTriangle size={14} aria-hidden="true" />
              <span>{error}</span>
            </div>
          ) : null}
          <div className="modal-actions">
            {note !== null ? <span className="faint save-test-note" data-testid="save-test-note">{note}</span> : null}
            <button type="button" className="button" onClick={show} disabled={json !== null} data-testid="save-test-show">
              Show JSON
            </button>
            <button type="button" className="button" onClick={copy} data-testid="save-test-copy">
              <Copy size={13} aria-hidden="true" /> Copy JSON
            </button>
            <button type="submit" className="button button-primary">
              Close
            </button>
          </div>
          {json !== null ? (
            <pre className="save-test-json mono" data-testid="save-test-json">
              {json}
            </pre>
          ) : null}
        </FormModal>
      ) : null}
    </>
  );
}
