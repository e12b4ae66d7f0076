// "Start a run": the form of the workflow's input schema (the input it was last started with
// offered again), an optional idempotency key and queue priority, and, folded away until asked
// for, the Debug section (breakpoints picked on the graph, pinned outputs: start-run-debug.tsx).
// Start sends POST /api/runs and hands the new run's id up, so the run opens at once.
import { FormModal } from '../../core/form-modal.tsx';
import { useMemo, useState } from 'react';
import { Bug, ChevronRight, Play, RotateCcw, X } from 'lucide-react';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { errorMessage, type RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { SchemaForm, type SchemaFormResult } from '../../forms/schema-form.tsx';
import { forgetStartInput, lastStartInput, rememberStartInput } from './last-inputs.ts';
import { debugCommand, EMPTY_DEBUG, type DebugDraft } from './debug-draft.ts';
import { StartRunDebug } from './start-run-debug.tsx';
import '../../forms/forms.css';
import './actions.css';
import './debug.css';

export interface StartRunDialogProps {
  workflowId: string;
  /** The definition's `input` (its JSON Schema); undefined: any JSON. */
  inputSchema: unknown;
  /** A stored version to start; default: the workspace file's. */
  version?: number;
  /** Workflow name, for the title. */
  name?: string;
  /** The definition, for the Debug section (its graph and steps); without it, no Debug section. */
  workflow?: Workflow;
  client?: RunActionsClient;
  onStarted(runId: string): void;
  onClose(): void;
}

export function StartRunDialog({ workflowId, inputSchema, version, name, workflow, client, onStarted, onClose }: StartRunDialogProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [last, setLast] = useState(() => lastStartInput(workflowId));
  const [formKey, setFormKey] = useState(0);
  const [input, setInput] = useState<SchemaFormResult>({ value: undefined, errors: [] });
  const [key, setKey] = useState('');
  const [priority, setPriority] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [debugOpen, setDebugOpen] = useState(false);
  const [debugDraft, setDebugDraft] = useState<DebugDraft>(EMPTY_DEBUG);

  const priorityValue = priority.trim() === '' ? undefined : Number(priority.trim());
  const priorityProblem = priorityValue !== undefined && !Number.isInteger(priorityValue) ? 'a whole number; higher starts first' : null;
  const inputProblem = input.errors[0] !== undefined ? `${input.errors[0].path}: ${input.errors[0].message}` : null;
  // A folded Debug section starts a normal run, whatever it holds.
  const debug = useMemo(() => (debugOpen ? debugCommand(debugDraft) : { debug: undefined, problems: {} }), [debugOpen, debugDraft]);
  const pinProblem = Object.entries(debug.problems)[0];

  const start = async () => {
    setTried(true);
    if (inputProblem !== null || priorityProblem !== null || pinProblem !== undefined) return;
    setBusy(true);
    setError(null);
    const value: JsonValue = input.value ?? (inputSchema === undefined ? null : {});
    try {
      const outcome = await actions.startRun({
        workflow: workflowId,
        input: value,
        ...(version === undefined ? {} : { version }),
        ...(key.trim() === '' ? {} : { key: key.trim() }),
        ...(priorityValue === undefined ? {} : { priority: priorityValue }),
        ...(debug.debug === undefined ? {} : { debug: debug.debug }),
      });
      rememberStartInput(workflowId, value);
      onStarted(outcome.runId);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormModal label="start a run" testId="dialog-start-run" className={`action-dialog start-run-dialog${debugOpen ? ' start-run-debugging' : ''}`} onClose={onClose} onSubmit={() => void start()}>
        <div className="modal-head">
          <div>
            <h2>Start a run</h2>
            <div className="action-subject">
              {name ?? workflowId}
              {version !== undefined ? ` · version ${version}` : ''}
            </div>
          </div>
          <button type="button" className="icon-button" onClick={onClose} aria-label="close">
            <X size={15} aria-hidden="true" />
          </button>
        </div>
        <div className="action-body">
          <section className="action-section">
            <div className="start-input-head">
              <h3>Input</h3>
              {last !== undefined ? (
                <span className="faint start-last">
                  the input of your last start ·{' '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      forgetStartInput(workflowId);
                      setLast(undefined);
                      setFormKey((k) => k + 1);
                    }}
                    data-testid="start-clear-last"
                  >
                    <RotateCcw size={11} aria-hidden="true" /> start from the defaults
                  </button>
                </span>
              ) : null}
            </div>
            <SchemaForm key={formKey} schema={inputSchema} initial={last} onChange={setInput} showAllErrors={tried} label="run input" testId="start-input" />
          </section>
          <div className="action-who">
            <label className="form-row">
              <span>Priority</span>
              <input className="text-input" inputMode="numeric" value={priority} onChange={(e) => setPriority(e.target.value)} placeholder="0" aria-invalid={priorityProblem !== null} data-testid="start-priority" />
              {priorityProblem !== null ? <small className="form-error">{priorityProblem}</small> : <small className="faint">among queued runs, higher first</small>}
            </label>
            <label className="form-row">
              <span>Key</span>
              <input className="text-input mono" value={key} onChange={(e) => setKey(e.target.value)} placeholder="optional, e.g. the order id" maxLength={200} data-testid="start-key" />
              <small className="faint">a key used before opens that run instead of starting another</small>
            </label>
          </div>
          {workflow !== undefined ? (
            <section className="action-section start-debug" data-testid="start-debug">
              <div className="start-debug-head">
                <h3>
                  <button type="button" className="link-button start-debug-toggle" aria-expanded={debugOpen} aria-controls="start-debug-panel" onClick={() => setDebugOpen((o) => !o)} data-testid="start-debug-toggle">
                    <ChevronRight size={14} aria-hidden="true" className="start-debug-chevron" />
                    <Bug size={13} aria-hidden="true" /> Debug
                  </button>
                </h3>
                <span className="faint">{debugOpen ? 'fold away to start a normal run' : 'pause at breakpoints, pin outputs of steps'}</span>
              </div>
              {debugOpen ? (
                <div id="start-debug-panel">
                  <StartRunDebug workflow={workflow} draft={debugDraft} onChange={setDebugDraft} problems={debug.problems} showProblems={tried} />
                </div>
              ) : null}
            </section>
          ) : null}
        </div>
        {tried && inputProblem !== null ? (
          <div className="form-error" role="alert" data-testid="action-problem">
            Fix the input: {inputProblem}
          </div>
        ) : null}
        {tried && inputProblem === null && pinProblem !== undefined ? (
          <div className="form-error" role="alert" data-testid="action-problem">
            Fix the pinned output of {pinProblem[0]}: {pinProblem[1]}
          </div>
        ) : null}
        {error !== null ? (
          <div className="action-error" role="alert" data-testid="action-error">
            {error}
          </div>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="submit-action">
            <Play size={13} aria-hidden="true" />
            {busy ? 'Starting…' : debug.debug !== undefined ? 'Start debug run' : 'Start'}
          </button>
        </div>
    </FormModal>
  );
}
