// The workspace's workflows: the list, and each opened workflow's definition and diagnostics.
import { create } from 'zustand';
import type { WorkflowDetail, WorkflowSummary } from '../api/api-types.ts';
import { requireClient } from './session-store.ts';

export interface Loadable<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

interface WorkflowsStore {
  list: Loadable<WorkflowSummary[]>;
  details: Record<string, Loadable<WorkflowDetail>>;
  refresh(): Promise<void>;
  load(id: string): Promise<void>;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const useWorkflows = create<WorkflowsStore>((set, get) => ({
  list: { data: null, error: null, loading: false },
  details: {},
  async refresh() {
    set((s) => ({ list: { ...s.list, loading: true } }));
    try {
      const { workflows } = await requireClient().workflows();
      set({ list: { data: workflows, error: null, loading: false } });
    } catch (error) {
      set((s) => ({ list: { data: s.list.data, error: message(error), loading: false } }));
    }
    for (const id of Object.keys(get().details)) void get().load(id);
  },
  async load(id) {
    set((s) => ({ details: { ...s.details, [id]: { data: s.details[id]?.data ?? null, error: null, loading: true } } }));
    try {
      const detail = await requireClient().workflow(id);
      set((s) => ({ details: { ...s.details, [id]: { data: detail, error: null, loading: false } } }));
    } catch (error) {
      set((s) => ({ details: { ...s.details, [id]: { data: s.details[id]?.data ?? null, error: message(error), loading: false } } }));
    }
  },
}));
