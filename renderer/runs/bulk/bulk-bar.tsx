// The bar over the runs list while runs are being selected: how many, "select all N matching"
// (every run the list's filter matches, reading the pages not shown yet), and the actions, each
// opening the bulk dialog (bulk-dialog.tsx) with a preview of what it will do to each run.
import { useState } from 'react';
import type { BulkActionName } from '../../../shared/api/bulk-action.ts';
import { MAX_BULK_RUNS } from '../../../shared/api/bulk-action.ts';
import { BulkDialog } from './bulk-dialog.tsx';
import type { BulkSelection } from './bulk-selection.ts';
import './bulk.css';

interface Props {
  selection: BulkSelection;
  /** Runs the list shows now, and whether more match than it has read. */
  shown: number;
  more: boolean;
  /** Every id the filter matches (reading the rest of the pages), at most MAX_BULK_RUNS. */
  loadAll(): Promise<string[]>;
  onApplied(): void;
}

export function BulkBar({ selection, shown, more, loadAll, onApplied }: Props) {
  const [open, setOpen] = useState<BulkActionName | null>(null);
  const [loading, setLoading] = useState(false);
  const [runIds, setRunIds] = useState<string[]>([]);
  const n = selection.ids.length;
  const selectAll = async () => {
    setLoading(true);
    try {
      selection.add(await loadAll(), true);
    } finally {
      setLoading(false);
    }
  };
  const act = (action: BulkActionName) => {
    setRunIds([...selection.ids]);
    setOpen(action);
  };
  return (
    <div className="bulk-bar" role="toolbar" aria-label="act on the selected runs" data-testid="bulk-bar">
      <span className="bulk-count" data-testid="bulk-count">
        {n} selected
      </span>
      <button type="button" className="button" onClick={() => void selectAll()} disabled={loading} data-testid="bulk-select-all">
        {loading ? 'Reading…' : `Select all ${more ? `${shown}+` : shown} matching`}
      </button>
      {n > 0 ? (
        <button type="button" className="button" onClick={selection.clear} data-testid="bulk-clear">
          Clear
        </button>
      ) : null}
      <span className="bulk-spacer" />
      <button type="button" className="button" disabled={n === 0} onClick={() => act('retry')} data-testid="bulk-retry">
        Retry…
      </button>
      <button type="button" className="button" disabled={n === 0} onClick={() => act('resolve')} data-testid="bulk-resolve">
        Resolve…
      </button>
      <button type="button" className="button" disabled={n === 0} onClick={() => act('replay')} data-testid="bulk-replay">
        Replay on…
      </button>
      <button type="button" className="button" disabled={n === 0} onClick={() => act('migrate')} data-testid="bulk-migrate">
        Migrate to…
      </button>
      <button type="button" className="button button-danger" disabled={n === 0} onClick={() => act('cancel')} data-testid="bulk-cancel">
        Cancel runs…
      </button>
      {n > MAX_BULK_RUNS ? <span className="faint">at most {MAX_BULK_RUNS} at once</span> : null}
      {open !== null ? <BulkDialog action={open} runIds={runIds.slice(0, MAX_BULK_RUNS)} onClose={() => setOpen(null)} onApplied={onApplied} /> : null}
    </div>
  );
}
