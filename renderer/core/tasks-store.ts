// Open human tasks across runs. Refetched (debounced) when the stream brings a task event or a
// run ends, so the sidebar count and the inbox stay current without polling.
import { create } from 'zustand';
import type { StreamMessage, TaskSummary } from '../api/api-types.ts';
import { requireClient } from './session-store.ts';

interface TasksStore {
  tasks: TaskSummary[] | null;
  error: string | null;
  refresh(): Promise<void>;
  noteEvents(messages: readonly StreamMessage[]): void;
}

const TASK_EVENTS = new Set(['task_opened', 'task_decided', 'task_reassigned', 'deadline_passed', 'run_state_changed']);
const DEBOUNCE_MS = 250;
let timer: ReturnType<typeof setTimeout> | null = null;

export const useTasks = create<TasksStore>((set, get) => ({
  tasks: null,
  error: null,
  async refresh() {
    try {
      const { tasks } = await requireClient().tasks();
      set({ tasks, error: null });
    } catch (error) {
      set({ error: error instanceof Error ? error.message : String(error) });
    }
  },
  noteEvents(messages) {
    if (!messages.some((m) => TASK_EVENTS.has(m.event.type)) || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void get().refresh();
    }, DEBOUNCE_MS);
  },
}));
