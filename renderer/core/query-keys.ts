// The keys of the app's server data, one place for all: every query and every invalidation names
// its data through these, so the stream's patches (core/stream-sync.ts) hit what the pages read.
// Run detail and run events have roots of their own: invalidating a detail never touches the
// events query, which is paged once and then only extended; nor a step's older attempts, which
// do not change once they are older than the detail's latest.
import type { RunFilter } from '../api/api-client.ts';

/** The runs list's server-side filters (paging is the query's own). */
export type RunsFilter = Pick<RunFilter, 'workflow' | 'state' | 'q' | 'version' | 'failingStep' | 'createdAfter' | 'createdBefore'>;

export const keys = {
  workflows: () => ['workflows'] as const,
  workflow: (id: string) => ['workflow', id] as const,
  lessons: (id: string) => ['lessons', id] as const,
  workflowSource: (file: string) => ['workflow-source', file] as const,
  workflowVersion: (id: string, version: number) => ['workflow', id, 'version', version] as const,
  runs: (filter: RunsFilter) => ['runs', filter] as const,
  /** Prefix of every runs list, whatever its filters. */
  allRuns: () => ['runs'] as const,
  runDetail: (id: string) => ['run-detail', id] as const,
  runEvents: (id: string) => ['run-events', id] as const,
  /** A step's older attempts, paged back from place `anchor` (where the detail's attempts began when they were asked for). */
  stepAttempts: (id: string, stepId: string, anchor: number) => ['run-attempts', id, stepId, anchor] as const,
  tasks: () => ['tasks'] as const,
  providerCircuits: () => ['provider-circuits'] as const,
  compare: (a: string, b: string) => ['compare', a, b] as const,
  stats: (workflowId: string, version: number | undefined) => ['stats', workflowId, version ?? null] as const,
  /** What a retry or fork from `step` would bill again, as of the run's event `seq`. */
  rebill: (id: string, action: string, step: string | null, seq: number) => ['rebill', id, action, step, seq] as const,
  /** The workspace policy file (weft.policy.json): its text and where it is. */
  policy: () => ['policy'] as const,
};
