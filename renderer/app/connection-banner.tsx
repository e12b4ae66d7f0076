// Shown while the engine is unreachable; the stream reconnects by itself and resumes from its
// cursor, and the banner goes when it is back.
import { WifiOff } from 'lucide-react';
import { useSession } from './session-store.ts';

export function ConnectionBanner() {
  const lost = useSession((s) => s.connection === 'lost' && s.authProblem === null);
  if (!lost) return null;
  return (
    <div className="banner" role="alert" data-testid="connection-lost">
      <WifiOff size={14} aria-hidden="true" />
      The connection to the engine was lost. Reconnecting…
    </div>
  );
}
