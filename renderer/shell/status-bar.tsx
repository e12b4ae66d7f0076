// The store the engine writes to, and how much of its log this window has seen.
import { useSession } from '../core/session-store.ts';

export function StatusBar() {
  const store = useSession((s) => s.health?.store);
  const eventsSeen = useSession((s) => s.eventsSeen);
  const connection = useSession((s) => s.connection);
  return (
    <footer className="statusbar">
      <span title={store}>{store ? `store ${store}` : 'no store'}</span>
      <span className="grow" />
      <span>{eventsSeen.toLocaleString()} live events</span>
      <span>{connection === 'open' ? '127.0.0.1 · connected' : 'disconnected'}</span>
    </footer>
  );
}
