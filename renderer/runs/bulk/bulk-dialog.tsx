// One action on the runs selected in the runs list, in three steps: the preview (what the action
// would do to each run, or why a run is refused; nothing is written), Apply (each run acted on in
// turn, one request per run, so the dialog shows "n of N" and a stopped page leaves every run
// either acted on or not), and the result, naming each refused run (a link to it) and why.
import { useEffect, useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import type { z } from 'zod';
import type { BulkActionName, BulkRequest, BulkResult, BulkRow } from '../../../shared/api/bulk-action.ts';
import { bulkCounts } from '../../../shared/api/bulk-action.ts';
import { requireClients } from '../../api/clients.ts';
import { errorMessage } from '../../api/run-actions-client.ts';
import { FormModal } from '../../core/form-modal.tsx';
import { ModalHead } from '../../core/modal-head.tsx';
import { formatRoute } from '../../core/route.ts';
import { useActor } from '../actions/who.ts';
import '../actions/actions.css';
import './bulk.css';

const TITLES: Readonly<Record<BulkActionName, string>> = { retry: 'Retry runs', resolve: 'Resolve runs', cancel: 'Cancel runs', replay: 'Replay runs on another version', migrate: 'Migrate runs to another version' };
const VERBS: Readonly<Record<BulkActionName, string>> = { retry: 'Retry', resolve: 'Resolve', cancel: 'Cancel', replay: 'Replay', migrate: 'Migrate' };

/** The version typed, or null while it is not a positive whole number. */
function versionOf(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n > 0 ? n : null;
}

interface Props {
  action: BulkActionName;
  runIds: readonly string[];
  onClose(): void;
  /** Heard once the runs were acted on (the list reads itself again). */
  onApplied(): void;
}

type Who = { by?: string; reason?: string };

/** The request for these runs, or null while resolve's answer (succeeded or failed), or the version of replay and migrate, is not given. */
function requestOf(action: BulkActionName, runs: string[], who: Who, as: 'succeeded' | 'failed' | null, version: number | null): z.input<typeof BulkRequest> | null {
  switch (action) {
    case 'retry':
      return { action, runs, ...who };
    case 'cancel':
      return { action, runs, ...who };
    case 'resolve':
      return as === null ? null : { action, runs, as, ...who };
    case 'replay':
      return version === null ? null : { action, runs, version };
    case 'migrate':
      return version === null ? null : { action, runs, toVersion: version, ...who };
  }
}

type Phase = { name: 'preview' } | { name: 'applying'; done: number } | { name: 'result'; result: BulkResult };

export function BulkDialog({ action, runIds, onClose, onApplied }: Props) {
  const [by, setBy] = useActor();
  const [reason, setReason] = useState('');
  const [as, setAs] = useState<'succeeded' | 'failed' | null>(null);
  const [versionText, setVersionText] = useState('');
  const version = versionOf(versionText);
  const needsVersion = action === 'replay' || action === 'migrate';
  const [preview, setPreview] = useState<BulkResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: 'preview' });
  const ready = action === 'resolve' ? as !== null : needsVersion ? version !== null : true;
  const who = (): Who => ({ by: by.trim(), ...(reason.trim() === '' ? {} : { reason: reason.trim() }) });

  useEffect(() => {
    const request = requestOf(action, [...runIds], {}, as, version);
    if (request === null) return;
    let live = true;
    setPreview(null);
    setError(null);
    requireClients()
      .bulk.preview(request)
      .then((r) => live && setPreview(r))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [action, runIds, as, version]);

  const apply = async () => {
    if (by.trim() === '' || !ready || phase.name !== 'preview') return;
    const rows: BulkRow[] = [];
    setPhase({ name: 'applying', done: 0 });
    for (const runId of runIds) {
      const request = requestOf(action, [runId], who(), as, version);
      if (request === null) return;
      try {
        rows.push(...(await requireClients().bulk.apply(request)).rows);
      } catch (e) {
        const shown = preview?.rows.find((r) => r.runId === runId);
        rows.push({ runId, workflowId: shown?.workflowId ?? '', version: shown?.version ?? 1, action, status: 'refused', reason: errorMessage(e) });
      }
      setPhase({ name: 'applying', done: rows.length });
    }
    setPhase({ name: 'result', result: { action, dryRun: false, rows, counts: bulkCounts(rows) } });
    onApplied();
  };

  const shown = phase.name === 'result' ? phase.result : preview;
  return (
    <FormModal label={TITLES[action]} testId="bulk-dialog" className="action-dialog bulk-dialog" onClose={onClose} onSubmit={() => void apply()}>
      <ModalHead
        title={TITLES[action]}
        subject={
          <>
            {runIds.length} selected run{runIds.length === 1 ? '' : 's'}
          </>
        }
        onClose={onClose}
      />
      {action === 'resolve' ? (
        <fieldset className="bulk-as" disabled={phase.name !== 'preview'}>
          <legend>What did the unknown step really do?</legend>
          {(['succeeded', 'failed'] as const).map((o) => (
            <label key={o}>
              <input type="radio" name="bulk-as" value={o} checked={as === o} onChange={() => setAs(o)} data-testid={`bulk-as-${o}`} /> {o}
            </label>
          ))}
        </fieldset>
      ) : null}
      {needsVersion ? (
        <label className="form-row bulk-version">
          <span>{action === 'replay' ? 'Replay each run on version' : 'Move each run to version'}</span>
          <input className="text-input" inputMode="numeric" value={versionText} onChange={(e) => setVersionText(e.target.value)} disabled={phase.name !== 'preview'} placeholder="e.g. 3" data-testid="bulk-version" />
          <small className="faint">
            {action === 'replay'
              ? 'of its workflow, as the store keeps it: each run’s input runs on it in virtual time from its recorded calls; nothing is sent anywhere and the runs are not changed.'
              : 'of its workflow: a run moves only when every check passes (weft migrate); the others are refused with why.'}
          </small>
        </label>
      ) : null}
      {error !== null ? (
        <div className="action-error" role="alert" data-testid="bulk-error">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>{error}</span>
        </div>
      ) : null}
      {!ready ? (
        <p className="faint" data-testid="bulk-choose">
          {needsVersion ? 'Give the version to see what each run would do.' : 'Choose what the step really did to see what each run would do.'}
        </p>
      ) : null}
      {ready && shown === null && error === null ? <div className="loading">Working out what each run would do…</div> : null}
      {shown !== null ? <BulkSummary result={shown} /> : null}
      {shown !== null ? <BulkRows rows={shown.rows} /> : null}
      {phase.name === 'applying' ? (
        <div className="bulk-progress" role="status" data-testid="bulk-progress">
          <progress max={runIds.length} value={phase.done} /> {phase.done} of {runIds.length}
        </div>
      ) : null}
      {phase.name === 'preview' && action !== 'replay' ? (
        <fieldset className="action-body">
          <div className="action-who">
            <label className="form-row">
              <span>By</span>
              <input className="text-input" value={by} onChange={(e) => setBy(e.target.value)} aria-invalid={by.trim() === ''} data-testid="action-by" />
            </label>
            <label className="form-row action-reason">
              <span>
                Reason<small className="faint"> (optional)</small>
              </span>
              <textarea className="text-input action-textarea" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Kept in each run's log with your name" rows={2} data-testid="action-reason" />
            </label>
          </div>
        </fieldset>
      ) : null}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose} disabled={phase.name === 'applying'}>
          {phase.name === 'result' ? 'Close' : 'Cancel'}
        </button>
        {phase.name !== 'result' ? (
          <button type="submit" className={`button button-primary${action === 'cancel' ? ' button-danger-solid' : ''}`} disabled={phase.name !== 'preview' || preview === null || preview.counts.would === 0 || by.trim() === ''} data-testid="bulk-apply">
            {VERBS[action]} {preview === null ? '' : `${preview.counts.would} run${preview.counts.would === 1 ? '' : 's'}`}
          </button>
        ) : null}
      </div>
    </FormModal>
  );
}

function BulkSummary({ result }: { result: BulkResult }) {
  const { counts } = result;
  const text = result.dryRun ? `${counts.would} would be acted on, ${counts.refused} refused` : `${counts.done} done, ${counts.refused} refused`;
  return (
    <p className="bulk-summary" data-testid={result.dryRun ? 'bulk-preview-summary' : 'bulk-result-summary'}>
      {text}
    </p>
  );
}

/** One line per run: a link to it, what it will do or did, or why it is refused. */
function BulkRows({ rows }: { rows: readonly BulkRow[] }) {
  return (
    <ul className="bulk-rows" data-testid="bulk-rows">
      {rows.map((r) => (
        <li key={r.runId} className="bulk-row" data-status={r.status} data-testid={`bulk-row-${r.runId}`}>
          <span className="bulk-status" data-status={r.status}>
            {r.status === 'would' ? 'will' : r.status}
          </span>
          <a className="mono" href={formatRoute({ page: 'run', id: r.runId })}>
            {r.runId}
          </a>
          <span className="faint">
            {r.workflowId} v{r.version}
          </span>
          <span className="bulk-what">{r.status === 'refused' ? r.reason : `${r.what ?? ''}${r.status === 'done' && r.state !== undefined && r.replay === undefined ? ` → ${r.state.replace('_', ' ')}` : ''}`}</span>
          {r.replay !== undefined ? (
            <a href={formatRoute({ page: 'compare', a: r.runId, b: r.replay.replayRunId })} data-testid={`bulk-compare-${r.runId}`} data-verdict={r.replay.verdict}>
              compare
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
