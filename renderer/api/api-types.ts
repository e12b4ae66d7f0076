// What the app reads from `weft serve`: the read models of shared/api (the contract, docs/api.md).
// The run page reads the restart record plus the run's definition snapshot; the full RunDetail
// (permitted actions, attempt details) comes with the engine service's read models.
import type { RestartRecord } from '../../shared/api/restart-record.ts';

export type { HealthInfo as Health } from '../../shared/api/health-info.ts';
export type { WorkflowSummary, WorkflowDetail } from '../../shared/api/workflow-views.ts';
export type { RunSummary, RunSummaryPage } from '../../shared/api/run-summary.ts';
export type { TaskSummary } from '../../shared/api/task-summary.ts';
export type { CursoredEvent as StreamMessage } from '../../shared/api/event-page.ts';

export type StepRecord = RestartRecord['steps'][number];
export type { RunRead as RunDetail } from './run-read.ts';
export type { DiagnosticSchema as Diagnostic } from '../../shared/api/diagnostic-schema.ts';
