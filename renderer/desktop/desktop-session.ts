// The session in the desktop app: the token comes from the shell (never from the address), and
// when the shell restarts the engine it says so; the app then reconnects with the new token. An
// engine on another origin is the shell's to handle: it reloads the window there.
import type { DesktopApi, DesktopSession } from '../../shared/desktop/preload-contract.ts';
import { storeToken } from '../api/token.ts';
import { useSession } from '../core/session-store.ts';
import { startSession } from '../core/start-session.ts';

export interface DesktopSessionDeps {
  storage: Storage;
  /** The page's origin (`location.origin`). */
  origin: string;
  /** startSession, replaceable in tests. */
  start?: (token: string) => () => void;
}

/** Starts the session from the shell's answer and follows its changes; resolves once started (or failed). */
export async function startDesktopSession(api: DesktopApi, { storage, origin, start = (token) => startSession(token, 'desktop') }: DesktopSessionDeps): Promise<() => void> {
  let stop = (): void => {};
  const begin = (session: DesktopSession) => {
    storeToken(storage, session.token);
    stop();
    stop = start(session.token);
  };
  const unsubscribe = api.onSessionChanged((session) => {
    if (session.url === origin) begin(session);
  });
  try {
    begin(await api.session());
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    useSession.setState({ authProblem: `The desktop app could not get its engine’s address and token (${why}). Quit Weft Studio and start it again.`, connection: 'lost' });
  }
  return () => {
    unsubscribe();
    stop();
  };
}
