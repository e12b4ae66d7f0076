// Shown while the engine is unreachable; the stream reconnects by itself and resumes from its
// cursor, and the banner goes when it is back. After a few failed attempts it says what a user
// who restarted `weft serve` must do (the page cannot follow it to a new port). A server that
// restarted with a new token gets its own notice (session-store.ts): the page stays as it was
// under it, and the notice says to open the address the terminal printed.
import { KeyRound, WifiOff } from 'lucide-react';
import { useSession } from '../core/session-store.ts';

/** Attempts lost in a row before the banner says what to do if the server was restarted (about 2 s). */
const HINT_AFTER_ATTEMPTS = 3;

export function ConnectionBanner() {
  const staleToken = useSession((s) => (s.authProblem === null ? s.staleToken : null));
  // Shown from the first loss until the connection is open again (not only between attempts).
  const lost = useSession((s) => s.lostAttempts > 0 && s.connection !== 'open' && s.authProblem === null);
  const hint = useSession((s) => s.lostAttempts >= HINT_AFTER_ATTEMPTS);
  const source = useSession((s) => s.tokenSource);
  if (staleToken !== null) {
    return (
      <div className="banner banner-strong" role="alert" data-testid="token-stale">
        <KeyRound size={14} aria-hidden="true" />
        <span>{staleToken}</span>
      </div>
    );
  }
  if (!lost) return null;
  return (
    <div className="banner" role="alert" data-testid="connection-lost">
      <WifiOff size={14} aria-hidden="true" />
      <span>
        The connection to the engine was lost. Reconnecting…
        {hint
          ? source === 'desktop'
            ? ' If this lasts, quit Weft Studio and start it again.'
            : ' If weft serve was restarted, open the address it printed in its terminal: this page reconnects by itself only to the same address and token.'
          : null}
      </span>
    </div>
  );
}
