// Leaving for another page of the app with unsaved changes asks first, in the app's own dialog:
// by a link of the app or by the browser's Back and Forward (route-store.ts holds the move until
// the answer). Stay keeps the editor as it is; Leave goes. A draft is kept either way.
import { useEffect } from 'react';
import { formatRoute, setLeaveGuard } from '../core/route-store.ts';
import { askConfirm } from '../core/confirm-store.ts';
import { isDirty, useEditor } from './editor-store.ts';

export function useLeaveGuard(): void {
  useEffect(() => {
    setLeaveGuard((to, leave) => {
      const state = useEditor.getState();
      if (!isDirty(state) || formatRoute(to) === formatRoute({ page: 'workflow', id: state.source?.workflowId ?? '' })) return true;
      void askConfirm({
        title: 'Leave with unsaved changes?',
        body: `${state.doc?.name ?? 'This workflow'} has unsaved changes. They are kept as a draft and offered back when you open it again.`,
        confirm: 'Leave',
        cancel: 'Stay',
      }).then((ok) => {
        if (ok) leave();
      });
      return false;
    });
    return () => setLeaveGuard(null);
  }, []);
}
