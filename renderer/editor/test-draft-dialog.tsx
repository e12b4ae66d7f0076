// "Test this draft against recent failures" (docs/evolution.md, "Replay"): the workflow's latest
// failed runs (or those that needed a person) replayed on the editor's document as it stands,
// saved or not, each in virtual time from its recorded calls, so nothing outside is touched. A
// table of verdicts answers "would this fix have saved them, and what else does it change"; each
// row opens the run and its replay side by side.
import { useCallback, useEffect, useState } from 'react';
import { AlertTriangle, FlaskConical, GitCompareArrows } from 'lucide-react';
import type { ReplayBatchResult } from '../../shared/api/replay-result.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { errorMessage } from '../api/run-actions-client.ts';
import { requireClients } from '../api/clients.ts';
import { FormModal } from '../core/form-modal.tsx';
import { ModalHead } from '../core/modal-head.tsx';
import { useRoute } from '../core/route-store.ts';
import { VerdictBadge } from '../runs/replay/replay-result-view.tsx';
import { useEditor } from './editor-store.ts';
import '../runs/replay/replay.css';

type Which = 'failed' | 'needs_attention';
const WHICH_LABEL: Record<Which, string> = { failed: 'failed runs', needs_attention: 'runs waiting for a person or an operator' };

export function TestDraftButton({ workflowId }: { workflowId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} title="Replay the recent failed runs on this draft, with their recorded calls: would it have saved them?" data-testid="test-draft">
        <FlaskConical size={14} aria-hidden="true" /> Test on failures
      </button>
      {open ? <TestDraftDialog workflowId={workflowId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function TestDraftDialog({ workflowId, onClose }: { workflowId: string; onClose(): void }) {
  const go = useRoute((s) => s.go);
  const [which, setWhich] = useState<Which>('failed');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ReplayBatchResult | null>(null);

  const test = useCallback(async (state: Which, draft: Workflow | null) => {
    if (draft === null) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await requireClients().replay.replayRuns({ filter: { workflow: workflowId, state, limit: 50 }, against: { definition: draft, name: '(draft)' } }));
    } catch (e) {
      setResult(null);
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }, [workflowId]);
  // Tested on open with the document as it is now; "Test again" after more edits.
  useEffect(() => {
    void test('failed', useEditor.getState().doc);
  }, [test]);
  const again = (state: Which) => void test(state, useEditor.getState().doc);

  return (
    <FormModal label="Test this draft against recent failures" testId="dialog-test-draft" className="action-dialog replay-dialog" onClose={onClose} onSubmit={() => again(which)}>
      <ModalHead
        title="Test this draft against recent failures"
        subject={
          <>
            {workflowId} · the editor&rsquo;s document, saved or not
          </>
        }
        onClose={onClose}
      />
      <p className="muted action-explain">
        Each run&rsquo;s input runs on this draft in virtual time; every call to the outside is answered from the run&rsquo;s own recordings, so nothing is sent anywhere. The replays are kept apart from real runs.
      </p>
      <label className="replay-which">
        Replay the latest 50{' '}
        <select
          className="select"
          value={which}
          onChange={(e) => {
            const next = e.target.value as Which;
            setWhich(next);
            again(next);
          }}
          data-testid="test-draft-which"
        >
          {(Object.keys(WHICH_LABEL) as Which[]).map((w) => (
            <option key={w} value={w}>
              {WHICH_LABEL[w]}
            </option>
          ))}
        </select>
      </label>
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="test-draft-error">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>{error}</span>
        </div>
      ) : null}
      {busy && result === null ? <p className="muted">Replaying…</p> : null}
      {result !== null ? (
        <div data-testid="test-draft-result" aria-busy={busy}>
          <p className="replay-counts" role="status" data-testid="test-draft-summary">
            {result.rows.length === 0 ? `No ${WHICH_LABEL[which]} of ${workflowId} to replay.` : `${result.rows.length} run${result.rows.length === 1 ? '' : 's'}: ${result.summary}`}
          </p>
          {result.rows.length > 0 ? (
            <table className="replay-table" aria-label="verdict of each run replayed on the draft">
              <thead>
                <tr>
                  <th>run</th>
                  <th>ended</th>
                  <th>verdict</th>
                  <th>what the draft does</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.sourceRunId} data-testid={`test-draft-row-${r.sourceRunId}`} data-verdict={r.verdict}>
                    <td>
                      <button type="button" className="link-button mono" onClick={() => { onClose(); go({ page: 'run', id: r.sourceRunId }); }}>
                        {r.sourceRunId}
                      </button>
                    </td>
                    <td>
                      <span className="state" data-state={r.sourceState}>{r.sourceState.replace('_', ' ')}</span>
                      {r.failingStep !== null ? <span className="faint"> at <span className="mono">{r.failingStep}</span></span> : null}
                    </td>
                    <td>
                      <VerdictBadge verdict={r.verdict} />
                    </td>
                    <td className="muted">{r.group !== r.verdict ? `${r.group}. ` : ''}{r.note ?? (r.verdict === 'fixed' ? `ends ${r.replayState.replace('_', ' ')}` : '')}</td>
                    <td>
                      <button type="button" className="link-button" onClick={() => { onClose(); go({ page: 'compare', a: r.sourceRunId, b: r.replayRunId }); }} data-testid={`test-draft-compare-${r.sourceRunId}`}>
                        <GitCompareArrows size={13} aria-hidden="true" /> Compare
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
      <div className="modal-actions">
        {busy && result !== null ? <span className="faint">Replaying…</span> : null}
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="button button-primary" disabled={busy} data-testid="test-draft-again">
          <FlaskConical size={13} aria-hidden="true" /> Test again
        </button>
      </div>
    </FormModal>
  );
}
