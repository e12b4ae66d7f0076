// What the app reads from `weft serve`: the read models of shared/api (the contract, docs/api.md).
// The run page reads the run's RunDetail (route `runs.get`): the restart record, the permitted
// actions, the attempt details and the definition snapshot.
import type { RestartRecord } from '../../shared/api/restart-record.ts';

export type { HealthInfo as Health } from '../../shared/api/health-info.ts';
export type { WorkflowSummary, WorkflowDetail } from '../../shared/api/workflow-views.ts';
export type { RunSummary, RunSummaryPage } from '../../shared/api/run-summary.ts';
export type { TaskSummary } from '../../shared/api/task-summary.ts';
export type { CursoredEvent as StreamMessage } from '../../shared/api/event-page.ts';

export type StepRecord = RestartRecord['steps'][number];
export type { RunDetail } from '../../shared/api/run-detail.ts';
export type { DiagnosticSchema as Diagnostic } from '../../shared/api/diagnostic-schema.ts';
