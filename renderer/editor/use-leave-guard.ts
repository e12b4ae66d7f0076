// Leaving for another page of the app with unsaved changes asks first (a draft is kept either way).
import { useEffect } from 'react';
import { formatRoute, setLeaveGuard } from '../core/route-store.ts';
import { isDirty, useEditor } from './editor-store.ts';

export function useLeaveGuard(): void {
  useEffect(() => {
    setLeaveGuard((to) => {
      const state = useEditor.getState();
      if (!isDirty(state) || formatRoute(to) === window.location.hash) return true;
      return window.confirm(`${state.doc?.name ?? 'This workflow'} has unsaved changes. Leave it? They are kept as a draft and offered when you open it again.`);
    });
    return () => setLeaveGuard(null);
  }, []);
}
