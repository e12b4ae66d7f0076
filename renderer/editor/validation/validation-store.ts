// Live validation of the editor's document: watches `useEditor`'s doc, checks it in a web worker
// (debounced, newest wins) and keeps the result grouped by step and edge for the canvas badges
// and the Problems panel.
import { create } from 'zustand';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { useEditor } from '../editor-store.ts';
import { validatorFailure } from './check-definition.ts';
import { encodeDelta } from './doc-delta.ts';
import { groupDiagnostics, NO_DIAGNOSTICS, type GroupedDiagnostics } from './group-diagnostics.ts';
import { LatestWinsScheduler } from './latest-wins-scheduler.ts';
import type { ValidationRequest, ValidationResponse } from './validation-worker.ts';
import type { Policy } from '../../../shared/policy/policy-schema.ts';
import { usePolicyRules } from '../../policy/policy-store.ts';

/** Quiet time after the last edit before the document is checked. */
export const VALIDATION_DELAY_MS = 120;

export interface ValidationState extends GroupedDiagnostics {
  /** An edit has not been checked yet. */
  pending: boolean;
  /** Validator time of the last result, in the worker (ms). */
  lastMs: number | null;
  /** From sending the document to the worker to its result arriving (ms): what a user waits after the delay. */
  lastRoundTripMs: number | null;
  /** Results applied so far. */
  runs: number;
  /** The document the diagnostics are for: their paths index into it. */
  checkedDoc: Workflow | null;
}

const INITIAL: ValidationState = { ...NO_DIAGNOSTICS, pending: false, lastMs: null, lastRoundTripMs: null, runs: 0, checkedDoc: null };

export const useValidation = create<ValidationState>()(() => INITIAL);

/**
 * Bench probe, read-only: `window.__weftValidation` gives `{ lastMs, lastRoundTripMs, runs, pending }`.
 * A Playwright bench measures keystroke → diagnostics by noting `runs`, typing, and waiting until
 * `runs` has grown and `pending` is false (then `lastMs` is the validator's share of that time).
 */
export interface ValidationProbe {
  readonly lastMs: number | null;
  readonly lastRoundTripMs: number | null;
  readonly runs: number;
  readonly pending: boolean;
}

declare global {
  interface Window {
    readonly __weftValidation?: ValidationProbe;
  }
}

function exposeProbe(): void {
  if (Object.getOwnPropertyDescriptor(window, '__weftValidation') !== undefined) return;
  Object.defineProperty(window, '__weftValidation', {
    configurable: true,
    get: (): ValidationProbe => {
      const { lastMs, lastRoundTripMs, runs, pending } = useValidation.getState();
      return Object.freeze({ lastMs, lastRoundTripMs, runs, pending });
    },
  });
}

/**
 * Starts checking the editor's document whenever it changes; the editor page calls it once
 * (in an effect) and calls the returned function when it unmounts.
 */
export function watchValidation(): () => void {
  exposeProbe();
  let worker: Worker | null = null;
  const sent = new Map<number, { doc: Workflow; at: number }>();
  // The document the worker holds: the next one goes as a change against it.
  let workerDoc: Workflow | null = null;
  // The policy the worker checks against; sent again with the next request after it changes (or a new worker).
  let workerPolicy: Policy | null | undefined;
  const scheduler = new LatestWinsScheduler<Workflow>({
    delayMs: VALIDATION_DELAY_MS,
    timers: { set: (run, ms) => window.setTimeout(run, ms), clear: (handle) => window.clearTimeout(Number(handle)) },
    send(id, doc) {
      sent.set(id, { doc, at: performance.now() });
      const rules = usePolicyRules.getState().rules;
      const request: ValidationRequest = { id, change: encodeDelta(doc, workerDoc), ...(rules === workerPolicy ? {} : { policy: rules }) };
      workerDoc = doc;
      workerPolicy = rules;
      worker ??= startWorker();
      worker.postMessage(request);
    },
    onPending: (pending) => useValidation.setState({ pending }),
  });

  const settle = (id: number, diagnostics: Diagnostic[], ms: number | null): void => {
    const request = sent.get(id);
    sent.delete(id);
    if (!scheduler.settle(id) || request === undefined) return;
    const previous = useValidation.getState();
    useValidation.setState({
      ...groupDiagnostics(diagnostics, request.doc, previous),
      lastMs: ms,
      lastRoundTripMs: performance.now() - request.at,
      runs: previous.runs + 1,
      checkedDoc: request.doc,
    });
  };
  const onMessage = (message: MessageEvent<ValidationResponse>): void => {
    const { id, diagnostics, ms, resync } = message.data;
    if (resync === true) {
      // Not expected (requests arrive in order), but recoverable: send the document whole.
      workerDoc = null;
      const latest = useEditor.getState().doc;
      if (latest !== null) {
        scheduler.submit(latest);
        scheduler.flush();
      }
    }
    settle(id, diagnostics, ms);
  };
  // The worker catches the validator's errors, so an error event means the worker itself failed
  // (to load, say): report it, and start a new worker for the next edit instead of waiting forever.
  const onError = (event: ErrorEvent): void => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    workerDoc = null;
    workerPolicy = undefined;
    const id = scheduler.inFlightId;
    if (id !== null) settle(id, [validatorFailure(event.message || 'the validation worker failed to start')], null);
  };
  const startWorker = (): Worker => {
    const created = new Worker(new URL('./validation-worker.ts', import.meta.url), { type: 'module' });
    created.onmessage = onMessage;
    created.onerror = onError;
    return created;
  };

  const onDoc = (doc: Workflow | null, opened: boolean): void => {
    if (doc === null || opened) {
      scheduler.cancel();
      // Another workflow's diagnostics would land on steps that happen to share their ids.
      useValidation.setState({ ...INITIAL, runs: useValidation.getState().runs });
    }
    if (doc === null) return;
    scheduler.submit(doc);
    // A document just opened is checked at once; edits wait for a pause.
    if (opened) scheduler.flush();
  };
  const unsubscribe = useEditor.subscribe((state, before) => {
    if (state.doc === before.doc) return;
    onDoc(state.doc, before.doc === null || state.source?.workflowId !== before.source?.workflowId);
  });
  onDoc(useEditor.getState().doc, true);
  // New rules (the policy page saved, or the file was first read): check the open document again at once.
  const unsubscribePolicy = usePolicyRules.subscribe((state, before) => {
    if (state.rules === before.rules) return;
    const doc = useEditor.getState().doc;
    if (doc === null) return;
    scheduler.submit(doc);
    scheduler.flush();
  });

  return () => {
    unsubscribe();
    unsubscribePolicy();
    scheduler.cancel();
    worker?.terminate();
    worker = null;
    sent.clear();
    useValidation.setState({ ...INITIAL, runs: useValidation.getState().runs });
  };
}
