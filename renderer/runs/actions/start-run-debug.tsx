// The start form's "Debug" section: breakpoints picked on the workflow's graph (a click on a step
// sets or clears its breakpoint, drawn as a red dot), with a checklist of the steps as the
// keyboard's and screen reader's twin of the graph, and pinned outputs for chosen steps, typed as
// JSON or copied from a past run's attempt. A run started with any of them is a debug run
// (docs/engine.md, Debug runs); with none, a normal run.
import { useMemo } from 'react';
import { Bug } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { WorkflowGraph } from '../../graph/workflow-graph.tsx';
import { setPin, toggleBreakpoint, type DebugDraft } from './debug-draft.ts';
import { PinFromRun } from './pin-from-run.tsx';

interface Props {
  workflow: Workflow;
  draft: DebugDraft;
  onChange(draft: DebugDraft): void;
  /** Each pin's problem by step id, shown once the user tried to start (or left the field). */
  problems: Readonly<Record<string, string>>;
  showProblems: boolean;
}

const NO_DIAGNOSTICS: never[] = [];

export function StartRunDebug({ workflow, draft, onChange, problems, showProblems }: Props) {
  const marks = useMemo(() => ({ breakpoints: draft.breakpoints, pins: Object.keys(draft.pins) }), [draft]);
  const pinned = workflow.steps.filter((s) => Object.hasOwn(draft.pins, s.id));
  return (
    <div className="start-debug-body">
      <p className="faint start-debug-lead">
        The run pauses before each step with a breakpoint; a pinned step is not called, it succeeds at once with the output you give.
      </p>
      <div className="start-debug-grid">
        <div className="start-debug-graph" data-testid="start-debug-graph">
          <WorkflowGraph workflow={workflow} diagnostics={NO_DIAGNOSTICS} debug={marks} onSelect={(id) => id !== null && onChange(toggleBreakpoint(draft, id))} />
          <small className="faint">Click a step to set or clear its breakpoint.</small>
        </div>
        <div className="start-debug-side">
          <table className="start-debug-steps" data-testid="start-debug-steps">
            <caption className="faint">Steps</caption>
            <thead>
              <tr>
                <th scope="col">step</th>
                <th scope="col">breakpoint</th>
                <th scope="col">pin output</th>
              </tr>
            </thead>
            <tbody>
              {workflow.steps.map((s) => {
                const pinnable = s.kind !== 'end';
                return (
                  <tr key={s.id}>
                    <th scope="row" title={s.name}>
                      <span className="mono">{s.id}</span>
                    </th>
                    <td>
                      <input
                        type="checkbox"
                        checked={draft.breakpoints.includes(s.id)}
                        onChange={() => onChange(toggleBreakpoint(draft, s.id))}
                        aria-label={`pause before ${s.id}`}
                        data-testid={`debug-break-${s.id}`}
                      />
                    </td>
                    <td>
                      <input
                        type="checkbox"
                        checked={Object.hasOwn(draft.pins, s.id)}
                        disabled={!pinnable}
                        title={pinnable ? `settle ${s.id} with an output you give` : 'an end step gives no output of its own: pin a step before it'}
                        onChange={(e) => onChange(setPin(draft, s.id, e.target.checked ? { text: '', from: null } : null))}
                        aria-label={`pin the output of ${s.id}`}
                        data-testid={`debug-pin-${s.id}`}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {pinned.map((s) => {
            const pin = draft.pins[s.id] ?? { text: '', from: null };
            const problem = showProblems ? problems[s.id] : undefined;
            const errorId = `pin-error-${s.id}`;
            return (
              <div key={s.id} className="start-pin" data-testid={`pin-${s.id}`}>
                <div className="start-pin-head">
                  <Bug size={13} aria-hidden="true" />
                  <label htmlFor={`pin-text-${s.id}`}>
                    Pinned output of <span className="mono">{s.id}</span>
                  </label>
                  {pin.from !== null ? <span className="faint">copied from {pin.from}</span> : null}
                </div>
                <PinFromRun workflowId={workflow.id} stepId={s.id} onCopied={(text, from) => onChange(setPin(draft, s.id, { text, from }))} />
                <textarea
                  id={`pin-text-${s.id}`}
                  className="text-input mono action-textarea start-pin-text"
                  rows={Math.min(6, Math.max(2, pin.text.split('\n').length))}
                  value={pin.text}
                  placeholder={'the output as JSON, e.g. {"status": 200, "body": {}}'}
                  spellCheck={false}
                  onChange={(e) => onChange(setPin(draft, s.id, { text: e.target.value, from: null }))}
                  aria-invalid={problem !== undefined}
                  aria-describedby={problem !== undefined ? errorId : undefined}
                  data-testid={`pin-text-${s.id}`}
                />
                {problem !== undefined ? (
                  <small className="form-error" id={errorId} data-testid={errorId}>
                    {s.id}: {problem}
                  </small>
                ) : (
                  <small className="faint">checked against the step&apos;s output schema when the run starts</small>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
