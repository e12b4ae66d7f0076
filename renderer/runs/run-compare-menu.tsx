// The run page's Compare menu: another run to compare this one with (the picker), and the
// what-if tools that change nothing of the run: "Replay on another version…" (replay-dialog.tsx)
// and "Save as test" (save-as-test.tsx). Those two draw their items here, while their dialogs live
// with them outside the menu, so picking one closes the menu and keeps the dialog. One menu keeps
// the run's head on one line. A replay's page has the picker only (a replay takes no actions).
import { useEffect, useMemo, useRef, useState } from 'react';
import { GitCompare } from 'lucide-react';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import { rowsOf, useRunsList } from '../core/runs-list-query.ts';
import { useRoute } from '../core/route-store.ts';
import { SaveAsTest } from './actions/save-as-test.tsx';
import { ComparePicker } from './compare/compare-view.tsx';
import { ReplayOn } from './replay/replay-dialog.tsx';

export function RunCompareMenu({ detail }: { detail: RunDetail }) {
  const go = useRoute((s) => s.go);
  const run = detail.run;
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<HTMLDivElement | null>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const sameWorkflow = useRunsList(useMemo(() => ({ workflow: run.workflowId }), [run.workflowId]), { enabled: open, limit: 200 });
  const runs = useMemo(() => rowsOf(sameWorkflow.data).filter((r) => r.id !== run.id), [sameWorkflow.data, run.id]);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (anchor.current !== null && !anchor.current.contains(e.target instanceof Node ? e.target : null)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => (e.key === 'Escape' ? setOpen(false) : undefined);
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', escape);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', escape);
    };
  }, [open]);
  const menu = items === null ? undefined : { element: items, onPick: () => setOpen(false) };
  const tests = run.replayOf === undefined;
  return (
    <div className="menu-anchor" ref={anchor}>
      <button type="button" className="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-haspopup="menu" data-testid="compare-button">
        <GitCompare size={14} aria-hidden="true" /> Compare…
      </button>
      <div className="menu compare-menu" style={open ? undefined : { display: 'none' }}>
        {open ? <ComparePicker runA={run.id} runs={runs} onPick={(b) => go({ page: 'compare', a: run.id, b })} /> : null}
        {tests ? (
          <>
            <hr />
            <div role="menu" aria-label="test this run" ref={setItems} data-testid="run-test-items" />
          </>
        ) : null}
      </div>
      {tests && menu !== undefined ? (
        <>
          <ReplayOn detail={detail} menu={menu} />
          <SaveAsTest detail={detail} menu={menu} />
        </>
      ) : null}
    </div>
  );
}
