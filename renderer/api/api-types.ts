// What the app reads from `weft serve`. The read models mirror `weft runs/inspect/events --json`
// (the engine's restart record and event log); the server's routes are in docs/api.md.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { RunState, StepState } from '../../shared/definition/names.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';

export interface Health {
  version: string;
  workspace: string;
  store: string;
}

export interface WorkflowSummary {
  id: string;
  file: string;
  version: number;
  name: string;
  steps: number;
  errors: number;
  warnings: number;
}

export interface WorkflowDetail {
  file: string;
  definition: Workflow | null;
  diagnostics: Diagnostic[];
  versions: number[];
}

export interface RunSummary {
  id: string;
  workflowId: string;
  version: number;
  state: RunState;
  inputRevision: number;
  createdAt: string;
  endedAt?: string | null;
  failedAt?: string | null;
}

export interface AttemptRecord {
  id: string;
  activation: number;
  number: number;
  state: string;
  startedAt: string;
  endedAt: string | null;
  error: { code: string; message: string } | null;
}

export interface StepRecord {
  id: string;
  state: StepState;
  activation: number;
  attempts: AttemptRecord[];
  next: string;
}

export interface RunDetail {
  run: { id: string; workflowId: string; version: number; state: RunState; inputRevision: number };
  steps: StepRecord[];
  definition?: Workflow;
}

export interface RunEvent {
  seq: number;
  at: string;
  type: string;
  step: string | null;
  activation: number | null;
  attempt: number | null;
  data: unknown;
  reason: string | null;
}

export interface StreamMessage {
  cursor: number;
  runId: string;
  event: RunEvent;
}

export interface TaskSummary {
  runId: string;
  stepId: string;
  workflowId: string;
  task: string;
  assignee: string | null;
  deadline: string | null;
  title: string | null;
}
