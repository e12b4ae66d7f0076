// "Replay on…" on the run page (docs/evolution.md, "Replay"): the run's input on another
// definition of its workflow, in virtual time, every call answered from this run's recordings, so
// nothing outside is touched. The person picks the definition: the workflow's file as saved now,
// or a version the store holds. The answer shows the verdict (would it have saved the run, what
// else changes) above the comparison of the two runs.
import { useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { AlertTriangle, History } from 'lucide-react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { ReplayAgainstRequest, ReplayResult } from '../../../shared/api/replay-result.ts';
import { errorMessage } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { FormModal } from '../../core/form-modal.tsx';
import { ModalHead } from '../../core/modal-head.tsx';
import { useWorkflowDetail } from '../../core/workflow-queries.ts';
import { ReplayResultView } from './replay-result-view.tsx';
import './replay.css';

/** A choice of definition: `file` the workspace file as saved now, or a stored version. */
type Choice = 'file' | number;

/** `menu`: the run page's Test menu, where the trigger is drawn as a menu item (the dialog stays here). */
export function ReplayOn({ detail, menu }: { detail: RunDetail; menu?: { element: HTMLElement; onPick(): void } }) {
  const [open, setOpen] = useState(false);
  const run = detail.run;
  const title = "Replay this run's input on another version of its workflow, with its recorded calls: nothing outside is called";
  return (
    <>
      {menu === undefined ? (
        <button type="button" className="button" onClick={() => setOpen(true)} title={title} data-testid="replay-on">
          <History size={13} aria-hidden="true" /> Replay on…
        </button>
      ) : (
        createPortal(
          <button type="button" role="menuitem" onClick={() => { menu.onPick(); setOpen(true); }} title={title} data-testid="replay-on">
            <History size={14} aria-hidden="true" /> Replay on another version…
          </button>,
          menu.element,
        )
      )}
      {open ? <ReplayDialog runId={run.id} workflowId={run.workflowId} version={run.version} state={run.state} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

interface DialogProps {
  runId: string;
  workflowId: string;
  version: number;
  state: string;
  onClose(): void;
}

function ReplayDialog({ runId, workflowId, version, state, onClose }: DialogProps) {
  const workflow = useWorkflowDetail(workflowId);
  const file = workflow.data?.summary.file ?? null;
  const fileVersion = workflow.data?.definition?.version ?? null;
  const versions = useMemo(() => [...(workflow.data?.versions ?? [])].sort((a, b) => b.version - a.version), [workflow.data]);
  const [choice, setChoice] = useState<Choice | null>(null);
  const chosen: Choice | null = choice ?? (file !== null ? 'file' : (versions[0]?.version ?? null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ReplayResult | null>(null);

  const replay = async () => {
    if (chosen === null || busy) return;
    const against: ReplayAgainstRequest = chosen === 'file' ? { file: file ?? '' } : { workflowId, version: chosen };
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await requireClients().replay.replayRun(runId, { against }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormModal label="Replay on another version" testId="dialog-replay" className="action-dialog replay-dialog" onClose={onClose} onSubmit={() => void replay()}>
      <ModalHead
        title="Replay on…"
        subject={
          <>
            <span className="mono">{runId}</span> · {workflowId} v{version} · {state.replace('_', ' ')}
          </>
        }
        onClose={onClose}
      />
      <p className="muted action-explain">
        The run&rsquo;s input runs on the definition you pick, in virtual time. Every call to the outside is answered from this run&rsquo;s recorded attempts with the same input; nothing is sent anywhere. A step with no recording stops the replay.
      </p>
      <fieldset className="replay-choose" aria-label="definition to replay on" data-testid="replay-choices">
        {workflow.isPending ? <span className="muted">Reading the versions…</span> : null}
        {file !== null ? (
          <label>
            <input type="radio" name="replay-against" checked={chosen === 'file'} onChange={() => setChoice('file')} data-testid="replay-against-file" />
            <span>
              the file as saved now <span className="mono faint">{file}</span>
              {fileVersion !== null ? <span className="faint"> (v{fileVersion})</span> : null}
            </span>
          </label>
        ) : null}
        {versions.map((v) => (
          <label key={v.version}>
            <input type="radio" name="replay-against" checked={chosen === v.version} onChange={() => setChoice(v.version)} data-testid={`replay-against-${v.version}`} />
            <span>
              v{v.version}
              <span className="faint">
                {' '}
                · {v.source === 'saved' ? 'saved, not run' : `${v.runCount ?? 0} run${v.runCount === 1 ? '' : 's'}`}
                {v.version === version ? ' · the version this run ran' : ''}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="replay-error">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>{error}</span>
        </div>
      ) : null}
      {result !== null ? <ReplayResultView result={result} onLeave={onClose} /> : null}
      <div className="modal-actions">
        {busy ? <span className="faint">Replaying…</span> : null}
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="button button-primary" disabled={chosen === null || busy} data-testid="replay-submit">
          <History size={13} aria-hidden="true" /> {result === null ? 'Replay' : 'Replay again'}
        </button>
      </div>
    </FormModal>
  );
}
