// Starts the connection to the engine and keeps it: the token every client is built on, health,
// and the live stream, which keeps the query cache current (core/stream-sync.ts) for the runs the
// app shows (core/watched-runs.ts).
//
// A page open across a restart of the engine reconnects by itself when the engine comes back at
// the same address with the same token (the desktop app keeps its token). It cannot learn a new
// token: only the terminal and serve.json (readable by the user alone) hold it. So each lost
// connection asks /api/health why: a 401 from the address that answered before means the
// server restarted with a new token, and the page says so and what to do (`staleToken`), keeping
// what it shows. After a few failed attempts with nothing answering, the banner says that a
// server restarted elsewhere (a new port) must be opened at the address it printed.
import { clients } from '../api/clients.ts';
import { setCurrentToken } from '../api/current-token.ts';
import { EventStream } from '../api/event-stream.ts';
import { ROUTES } from '../../shared/api/routes.ts';
import { useSession, type TokenSource } from './session-store.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';
import { StreamSync } from './stream-sync.ts';
import { onWatchedRunsChange, watchedRuns, watchRuns } from './watched-runs.ts';
import { prefetchRunPage } from './run-queries.ts';
import { useRoute } from './route-store.ts';

/** How often health is read again on a PostgreSQL store (the header's count of live workers). */
const HEALTH_REFRESH_MS = 5_000;

const REFUSED: Record<TokenSource, string> = {
  address: 'The engine refused this page’s token (it changes at every start). Open the address that `weft serve` printed.',
  desktop: 'The engine refused the desktop app’s token. Quit Weft Studio and start it again.',
};

/** The server restarted and refuses the token this page had: what happened, and what to do. */
function restartedWithNewToken(source: TokenSource): string {
  if (source === 'desktop') return 'The engine was restarted with a new access token that this window did not receive. Quit Weft Studio and start it again.';
  return `weft serve was restarted with a new access token, so this page can no longer reach it. To go on, open the address it printed in its terminal (${window.location.origin}/#token=…). Unsaved edits are kept as drafts and offered again there.`;
}

/**
 * Everything shown is read again, in the background: after the stream was lost or fell behind.
 * A run's events are not read from the start again: its detail, read again, says where the log
 * ends now and the events query reads on from where it ends (core/run-queries.ts).
 */
function refreshShown(): void {
  const eventsRoot = keys.runEvents('')[0];
  void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== eventsRoot }, { cancelRefetch: false });
}

export function startSession(token: string | null, source: TokenSource = 'address'): () => void {
  useSession.setState({ tokenSource: source, staleToken: null, lostAttempts: 0 });
  setCurrentToken(token);
  const session = clients();
  if (session === null) {
    useSession.setState({
      authProblem: 'This page was opened without its access token. Open the address that `weft serve` printed.',
      connection: 'lost',
    });
    return () => {};
  }
  const api = session.api;
  // What another token's clients read may not be this engine's: read again what is shown.
  void queryClient.resetQueries();
  // A run page opened by its address reads its run now, while the page's code is still loading,
  // and the run is watched from the stream's first subscription: confirmed while those reads are
  // in flight, that subscription's refresh joins them instead of reading the run a second time.
  // The page watches the run itself once it shows; this watch ends when the app goes elsewhere.
  let unwatchOpening = (): void => {};
  const opening = useRoute.getState().route;
  if (opening.page === 'run') {
    prefetchRunPage(opening.id);
    const unwatch = watchRuns([opening.id]);
    const unsubscribe = useRoute.subscribe((s) => {
      if (s.route !== opening) unwatchOpening();
    });
    unwatchOpening = () => {
      unwatch();
      unsubscribe();
      unwatchOpening = () => {};
    };
  }
  // A session that was replaced (the desktop shell handed over a new token) may still have
  // answers in flight: they speak of the old token and must not touch the new session's state.
  let live = true;
  // Health names the workspace and the store; a refused token is reported from it: as refused
  // from the start, or, once this token has worked, as a restart with a new token.
  let answeredOnce = false;
  const checkHealth = () => {
    void api.health().then(
      (health) => {
        if (!live) return;
        answeredOnce = true;
        useSession.setState({ health, authProblem: null, staleToken: null });
      },
      (error: unknown) => {
        if (live && error instanceof Error && 'status' in error && error.status === 401) {
          useSession.setState(answeredOnce ? { staleToken: restartedWithNewToken(source) } : { authProblem: REFUSED[source] });
        }
      },
    );
  };
  const refreshAll = () => {
    if (!live) return;
    checkHealth();
    refreshShown();
  };
  const sync = new StreamSync(queryClient);
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  let wasLost = false;
  const stream = new EventStream(`${protocol}//${window.location.host}${ROUTES.stream.path}`, session.token, {
    onEvents(messages) {
      if (!live) return;
      useSession.setState((s) => ({ eventsSeen: s.eventsSeen + messages.length }));
      sync.apply(messages);
    },
    onSubscribed(first) {
      // The first subscription (and one after a resync) is live: read again what it continues.
      if (first) refreshAll();
    },
    onState(connection, cursor) {
      if (!live) return;
      useSession.setState((s) => ({ connection, cursor, lostAttempts: connection === 'lost' ? s.lostAttempts + 1 : connection === 'open' ? 0 : s.lostAttempts }));
      // A lost connection (or a refused one: a browser does not tell a WebSocket's 401) asks
      // health why; a server that is down does not answer and the stream keeps trying.
      if (connection === 'lost') {
        wasLost = true;
        checkHealth();
      }
      // After a reconnect the server may be a new process with new workflow files: read again.
      if (connection === 'open' && wasLost) {
        wasLost = false;
        refreshAll();
      }
    },
  });
  stream.watch(watchedRuns());
  const unwatch = onWatchedRunsChange(() => stream.watch(watchedRuns()));
  // At once too, so a refused token is reported even while the stream cannot connect.
  checkHealth();
  // On a PostgreSQL store the header counts the live workers, which come and go without a commit
  // to tell the stream: health is read again every few seconds there (it is one small query).
  const healthRefresh = setInterval(() => {
    if (useSession.getState().health?.storeKind === 'postgres') checkHealth();
  }, HEALTH_REFRESH_MS);
  stream.start();
  return () => {
    live = false;
    clearInterval(healthRefresh);
    unwatchOpening();
    unwatch();
    sync.stop();
    stream.stop();
  };
}
