// "Copy from a past run": pick a run of the workflow and one of its attempts of the step, and its
// output is fetched whole (the payload client's value by path: RunDetail may carry a large output
// as a stub) and handed up as JSON text for the pin. Attempts without an output are listed but
// cannot be copied, with the reason.
import { useMemo, useState } from 'react';
import { Copy } from 'lucide-react';
import { formatValuePath } from '../../../shared/api/value-path.ts';
import type { AttemptDetail } from '../../../shared/api/run-detail.ts';
import { errorMessage } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { rowsOf, useRunsList } from '../../core/runs-list-query.ts';
import { useRunDetail } from '../../core/run-queries.ts';
import { messageOf } from '../../core/query-client.ts';
import { detailFirstPlace } from '../run-view/older-attempts.ts';

interface Props {
  workflowId: string;
  stepId: string;
  onCopied(text: string, from: string): void;
}

export function PinFromRun({ workflowId, stepId, onCopied }: Props) {
  const runs = useRunsList(useMemo(() => ({ workflow: workflowId }), [workflowId]), { limit: 50 });
  const rows = useMemo(() => rowsOf(runs.data), [runs.data]);
  const [runId, setRunId] = useState('');
  const chosenRun = runId !== '' ? runId : (rows[0]?.id ?? '');
  return (
    <div className="pin-from-run" data-testid={`pin-from-run-${stepId}`}>
      <span className="faint">Copy from a past run:</span>
      <label className="pin-pick">
        <span>Run</span>
        <select className="select" value={chosenRun} onChange={(e) => setRunId(e.target.value)} disabled={rows.length === 0} data-testid={`pin-run-${stepId}`}>
          {rows.length === 0 ? <option value="">{runs.isPending ? 'reading runs…' : 'no run of this workflow yet'}</option> : null}
          {rows.map((r) => (
            <option key={r.id} value={r.id}>
              {r.id} · {r.state.replace('_', ' ')}
              {r.debug === true ? ' · debug' : ''}
            </option>
          ))}
        </select>
      </label>
      {chosenRun !== '' ? <AttemptPick runId={chosenRun} stepId={stepId} onCopied={onCopied} /> : null}
      {runs.error !== null ? <small className="form-error">{messageOf(runs.error)}</small> : null}
    </div>
  );
}

function AttemptPick({ runId, stepId, onCopied }: { runId: string; stepId: string; onCopied(text: string, from: string): void }) {
  const detail = useRunDetail(runId);
  const step = detail.data?.steps.find((s) => s.id === stepId);
  const first = step === undefined ? 0 : detailFirstPlace(step);
  const attempts = useMemo(() => (step?.attempts ?? []).map((a, i) => ({ attempt: a, place: first + i })).reverse(), [step, first]);
  const [picked, setPicked] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = attempts.find((a) => a.attempt.id === picked) ?? attempts.find((a) => a.attempt.output !== undefined) ?? attempts[0];

  const copy = async () => {
    if (chosen === undefined) return;
    setBusy(true);
    setError(null);
    try {
      const path = formatValuePath(['steps', stepId, 'attempts', chosen.place, 'output']);
      const answer = await requireClients().payload.value(runId, path);
      onCopied(JSON.stringify(answer.value, null, 2), `run ${runId}, attempt ${label(chosen.attempt)}`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (detail.error !== null) return <small className="form-error">{messageOf(detail.error)}</small>;
  if (detail.data === undefined) return <small className="faint">reading the run…</small>;
  if (attempts.length === 0) return <small className="faint">{stepId} did not run in {runId}: pick another run, or type the output.</small>;
  const noOutput = chosen !== undefined && chosen.attempt.output === undefined ? `attempt ${label(chosen.attempt)} ${chosen.attempt.state} without an output: pick another` : null;
  return (
    <>
      <label className="pin-pick">
        <span>Attempt</span>
        <select className="select" value={chosen?.attempt.id ?? ''} onChange={(e) => setPicked(e.target.value)} data-testid={`pin-attempt-${stepId}`}>
          {attempts.map(({ attempt }) => (
            <option key={attempt.id} value={attempt.id}>
              {label(attempt)} · {attempt.state}
              {attempt.pinned === true ? ' · pinned' : ''}
              {attempt.output === undefined ? ' · no output' : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" disabled={busy || noOutput !== null} title={noOutput ?? 'copy this output into the pin, to use as it is or to edit'} onClick={() => void copy()} data-testid={`pin-copy-${stepId}`}>
        <Copy size={13} aria-hidden="true" /> {busy ? 'Copying…' : 'Copy output'}
      </button>
      {noOutput !== null ? <small className="faint">{noOutput}</small> : null}
      {error !== null ? (
        <small className="form-error" role="alert">
          {error}
        </small>
      ) : null}
    </>
  );
}

/** "1.2": activation and attempt number (the attempt id without the step). */
function label(a: AttemptDetail): string {
  return `${a.activation}.${a.number}`;
}
