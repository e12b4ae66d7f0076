// Which store the engine serves from, in the header: nothing on SQLite (one engine, one file: the
// status bar names it), and on PostgreSQL a badge with how many engines (workers) share the store
// now, whose card (on hover or focus) lists each one's role, host and process. /api/health says it
// (its `storeKind` and `workers`), and start-session.ts reads it again every few seconds on
// PostgreSQL, so the count follows workers that start, stop or die.
import { useId } from 'react';
import { Database } from 'lucide-react';
import { useSession } from '../core/session-store.ts';

/** "1 worker", "2 workers". */
function workersText(n: number): string {
  return `${n} ${n === 1 ? 'worker' : 'workers'}`;
}

export function StoreBadge() {
  const kind = useSession((s) => s.health?.storeKind);
  const workers = useSession((s) => s.health?.workers);
  const store = useSession((s) => s.health?.store);
  const cardId = useId();
  if (kind !== 'postgres') return null;
  const alive = workers?.alive ?? 0;
  return (
    <span className="store-badge" tabIndex={0} aria-describedby={cardId} data-testid="store-badge" data-alive={alive}>
      <Database size={13} aria-hidden="true" />
      <span className="store-badge-kind">PostgreSQL</span>
      <span className="store-badge-sep" aria-hidden="true">·</span>
      <span className={alive === 0 ? 'store-badge-none' : undefined}>{workersText(alive)}</span>
      <span className="store-badge-card" role="tooltip" id={cardId}>
        <span className="store-badge-title">{store}</span>
        <span className="store-badge-label">Engines alive</span>
        {alive === 0 ? (
          <span className="store-badge-empty">No engine is alive on this store: runs wait until a worker starts (weft worker --store URL).</span>
        ) : (
          <span className="store-badge-list">
            {workers?.list.map((w) => (
              <span className="store-badge-row" key={w.id}>
                <span className="store-badge-role">{w.role}</span>
                <span className="store-badge-host">{w.host}</span>
                <span className="store-badge-pid">pid {w.pid}</span>
              </span>
            ))}
          </span>
        )}
      </span>
    </span>
  );
}
