// Starts the connection to the engine and keeps it: the API clients, health, and the live
// stream, which keeps the engine-data stores (runs, workflows, tasks) current.
//
// A page open across a restart of the engine reconnects by itself when the engine comes back at
// the same address with the same token (the desktop app keeps its token). It cannot learn a new
// token: only the terminal and serve.json (readable by the user alone) hold it. So each lost
// connection asks /api/health why: a 401 from the address that answered before means the
// server restarted with a new token, and the page says so and what to do (`staleToken`), keeping
// what it shows. After a few failed attempts with nothing answering, the banner says that a
// server restarted elsewhere (a new port) must be opened at the address it printed.
import { ApiClient } from '../api/api-client.ts';
import { WorkflowFilesClient } from '../api/workflow-files-client.ts';
import { CompareClient } from '../api/compare-client.ts';
import { TimelineClient } from '../api/timeline-client.ts';
import { EventStream } from '../api/event-stream.ts';
import { useSession, type TokenSource } from './session-store.ts';
import { useRuns } from './runs-store.ts';
import { useWorkflows } from './workflows-store.ts';
import { useTasks } from './tasks-store.ts';

const REFUSED: Record<TokenSource, string> = {
  address: 'The engine refused this page’s token (it changes at every start). Open the address that `weft serve` printed.',
  desktop: 'The engine refused the desktop app’s token. Quit Weft Studio and start it again.',
};

/** The server restarted and refuses the token this page had: what happened, and what to do. */
function restartedWithNewToken(source: TokenSource): string {
  if (source === 'desktop') return 'The engine was restarted with a new access token that this window did not receive. Quit Weft Studio and start it again.';
  return `weft serve was restarted with a new access token, so this page can no longer reach it. To go on, open the address it printed in its terminal (${window.location.origin}/#token=…). Unsaved edits are kept as drafts and offered again there.`;
}

export function startSession(token: string | null, source: TokenSource = 'address'): () => void {
  useSession.setState({ tokenSource: source, staleToken: null, lostAttempts: 0 });
  if (token === null) {
    useSession.setState({
      authProblem: 'This page was opened without its access token. Open the address that `weft serve` printed.',
      connection: 'lost',
    });
    return () => {};
  }
  const client = new ApiClient(token);
  useSession.setState({ client, files: new WorkflowFilesClient(token), compare: new CompareClient(token), timeline: new TimelineClient(token) });
  // A session that was replaced (the desktop shell handed over a new token) may still have
  // answers in flight: they speak of the old token and must not touch the new session's state.
  let live = true;
  // Health names the workspace and the store; a refused token is reported from it: as refused
  // from the start, or, once this token has worked, as a restart with a new token.
  let answeredOnce = false;
  const checkHealth = () => {
    void client.health().then(
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
    void useWorkflows.getState().refresh();
    void useRuns.getState().refreshList();
    void useTasks.getState().refresh();
  };
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  let wasLost = false;
  const stream = new EventStream(`${protocol}//${window.location.host}/api/stream`, token, {
    onEvents(messages) {
      if (!live) return;
      useSession.setState((s) => ({ eventsSeen: s.eventsSeen + messages.length }));
      useRuns.getState().applyStream(messages);
      useTasks.getState().noteEvents(messages);
    },
    onSubscribed(first) {
      // The first subscription (and one after a resync) is live: fetch the state it continues.
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
      // After a reconnect the server may be a new process with new workflow files: refetch.
      if (connection === 'open' && wasLost) {
        wasLost = false;
        refreshAll();
      }
    },
  });
  // At once too, so a refused token is reported even while the stream cannot connect.
  checkHealth();
  stream.start();
  return () => {
    live = false;
    stream.stop();
  };
}
