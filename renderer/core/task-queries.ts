// Open human tasks across runs, as a query. A task opens in a run the app may not watch, so the
// list is read again every few seconds while something shows it (the sidebar's count does,
// always), and at once when the stream brings a task event of a watched run.
import { useQuery } from '@tanstack/react-query';
import type { TaskSummary } from '../api/api-types.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from './query-keys.ts';

/** How often the task list is read again. */
export const TASKS_POLL_MS = 3000;

export function useTaskList() {
  return useQuery({
    queryKey: keys.tasks(),
    queryFn: async (): Promise<TaskSummary[]> => (await requireClients().api.tasks()).tasks,
    refetchInterval: TASKS_POLL_MS,
  });
}
