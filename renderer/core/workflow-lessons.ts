// A workflow's lessons (GET /api/workflows/:id/lessons) as a query, and what the editor's canvas
// draws of them: the lessons of each step, by step id, in a small view store the editor fills from
// the query (nodes subscribe to their own step's entry, as they do to run marks). Also which
// steps a save changes, so the editor can say which lessons concern the change before it saves.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import type { LessonsView } from '../../shared/api/lessons.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Lesson } from '../../shared/lessons/lessons-schema.ts';
import { requireClients } from '../api/clients.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';

export const workflowLessonsQuery = (id: string) => ({
  queryKey: keys.lessons(id),
  queryFn: (): Promise<LessonsView> => requireClients().api.lessons(id),
});

export function useWorkflowLessons(id: string | undefined) {
  return useQuery({ ...workflowLessonsQuery(id ?? ''), enabled: id !== undefined });
}

/** The lessons, read again (one was recorded). */
export function refreshLessons(id: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: keys.lessons(id) });
}

interface EditorLessons {
  /** The open workflow's lessons by step id (a lesson about two steps is under both). */
  byStep: Record<string, Lesson[]>;
  /** Why the lessons file could not be read; null when it could. */
  problem: string | null;
}

export const useEditorLessons = create<EditorLessons>(() => ({ byStep: {}, problem: null }));

const NONE: Lesson[] = [];

/** The lessons of one step of the open workflow (a stable empty list when it has none). */
export function useStepLessons(stepId: string): Lesson[] {
  return useEditorLessons((s) => s.byStep[stepId] ?? NONE);
}

/** Keeps the view store on workflow `id`'s lessons while the editor shows it. */
export function useLessonsOnCanvas(id: string): void {
  const { data } = useWorkflowLessons(id);
  useEffect(() => {
    const byStep: Record<string, Lesson[]> = {};
    for (const l of data?.lessons ?? []) for (const s of l.steps) (byStep[s] ??= []).push(l);
    useEditorLessons.setState({ byStep, problem: data?.problem ?? null });
  }, [data]);
  useEffect(() => () => useEditorLessons.setState({ byStep: {}, problem: null }), []);
}

/**
 * The steps of `saved` that `doc` changes or removes (a new step has no lessons yet).
 *
 * @example
 * changedSteps(saved, doc); // ['write']
 */
export function changedSteps(saved: Workflow | null, doc: Workflow): string[] {
  if (saved === null) return [];
  const now = new Map(doc.steps.map((s) => [s.id, JSON.stringify(s)]));
  return saved.steps.filter((s) => now.get(s.id) !== JSON.stringify(s)).map((s) => s.id);
}

/** "2 lessons concern this step" and each lesson, readable in the save question; null when none concern the change. */
export function lessonsWarning(steps: readonly string[], byStep: Readonly<Record<string, Lesson[]>>): { title: string; body: string } | null {
  const concerned = steps.filter((s) => (byStep[s] ?? []).length > 0);
  if (concerned.length === 0) return null;
  const seen = new Map<string, Lesson>();
  for (const s of concerned) for (const l of byStep[s] ?? []) seen.set(l.id, l);
  const n = seen.size;
  const title = concerned.length === 1 ? `${n} lesson${n === 1 ? '' : 's'} concern${n === 1 ? 's' : ''} this step` : `${n} lesson${n === 1 ? '' : 's'} concern${n === 1 ? 's' : ''} these steps`;
  const lines = [...seen.values()].map((l) => `${l.id} (${l.steps.join(', ')}): ${l.failureMode}\n   changed: ${l.changed}`);
  return { title, body: `This save changes ${concerned.map((s) => `"${s}"`).join(', ')}. Read what earlier runs taught first:\n\n${lines.join('\n\n')}` };
}
