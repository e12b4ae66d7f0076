// The workspace's workflows as queries: the list, and one workflow's detail (its definition,
// diagnostics, file hash and versions), fetched here and nowhere else: the editor, the run page,
// insights and the start-run dialog all read `workflowDetailQuery`.
import { useQuery } from '@tanstack/react-query';
import type { WorkflowDetail, WorkflowSummary } from '../api/api-types.ts';
import type { WorkflowSource, WorkflowVersionDetail } from '../../shared/api/workflow-views.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from './query-keys.ts';
import { queryClient } from './query-client.ts';

export const workflowListQuery = () => ({
  queryKey: keys.workflows(),
  queryFn: async (): Promise<WorkflowSummary[]> => (await requireClients().api.workflows()).workflows,
});

export const workflowDetailQuery = (id: string) => ({
  queryKey: keys.workflow(id),
  queryFn: (): Promise<WorkflowDetail> => requireClients().api.workflow(id),
});

export const workflowVersionQuery = (id: string, version: number) => ({
  queryKey: keys.workflowVersion(id, version),
  queryFn: (): Promise<WorkflowVersionDetail> => requireClients().api.workflowVersion(id, version),
});

/** A file's text and its findings placed in it: the view of a file that does not parse. */
export function useWorkflowSource(file: string) {
  return useQuery({ queryKey: keys.workflowSource(file), queryFn: (): Promise<WorkflowSource> => requireClients().api.workflowSource(file) });
}

export function useWorkflowList() {
  return useQuery(workflowListQuery());
}

export function useWorkflowDetail(id: string | undefined) {
  return useQuery({ ...workflowDetailQuery(id ?? ''), enabled: id !== undefined });
}

/** The detail, from the cache when it is there. */
export function fetchWorkflowDetail(id: string): Promise<WorkflowDetail> {
  return queryClient.fetchQuery(workflowDetailQuery(id));
}

/** A stored version (it never changes once stored). */
export function fetchWorkflowVersion(id: string, version: number): Promise<WorkflowVersionDetail> {
  return queryClient.fetchQuery(workflowVersionQuery(id, version));
}

/** The list and every workflow's detail are read again (a file was saved, created, imported, deleted). */
export async function refreshWorkflows(): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.workflows() }),
    queryClient.invalidateQueries({ queryKey: ['workflow'] }),
    queryClient.invalidateQueries({ queryKey: ['workflow-source'] }),
  ]);
}

/** The list, read afresh. */
export async function freshWorkflowList(): Promise<WorkflowSummary[]> {
  await queryClient.invalidateQueries({ queryKey: keys.workflows() });
  return queryClient.fetchQuery(workflowListQuery());
}
