// The connection to the engine: the API client, what /api/health said, and the live stream's
// state. Started once by main.tsx; views read single fields through selectors.
import { create } from 'zustand';
import { ApiClient } from '../api/api-client.ts';
import { WorkflowFilesClient } from '../api/workflow-files-client.ts';
import { CompareClient } from '../api/compare-client.ts';
import { TimelineClient } from '../api/timeline-client.ts';
import type { Health } from '../api/api-types.ts';
import { EventStream, type ConnectionState } from '../api/event-stream.ts';
import { useRuns } from '../runs/runs-store.ts';
import { useWorkflows } from '../workflows/workflows-store.ts';
import { useTasks } from '../tasks/tasks-store.ts';

interface SessionStore {
  client: ApiClient | null;
  /** The calls that write workflow files (the editor's). */
  files: WorkflowFilesClient | null;
  /** Compares two runs (`GET /api/compare`). */
  compare: CompareClient | null;
  /** A run's timeline and its events by page (the timeline and time travel). */
  timeline: TimelineClient | null;
  health: Health | null;
  connection: ConnectionState;
  cursor: number;
  /** Set when the app has no token or the server refused it. */
  authProblem: string | null;
  eventsSeen: number;
}

export const useSession = create<SessionStore>(() => ({
  client: null,
  files: null,
  compare: null,
  timeline: null,
  health: null,
  connection: 'connecting',
  cursor: 0,
  authProblem: null,
  eventsSeen: 0,
}));

export function requireClient(): ApiClient {
  const client = useSession.getState().client;
  if (client === null) throw new Error('the app is not connected to an engine');
  return client;
}

export function requireFiles(): WorkflowFilesClient {
  const files = useSession.getState().files;
  if (files === null) throw new Error('the app is not connected to an engine');
  return files;
}

/** Where the token came from: the address `weft serve` printed, or the desktop shell. */
export type TokenSource = 'address' | 'desktop';

const REFUSED: Record<TokenSource, string> = {
  address: 'The engine refused this page’s token (it changes at every start). Open the address that `weft serve` printed.',
  desktop: 'The engine refused the desktop app’s token. Quit Weft Studio and start it again.',
};

export function startSession(token: string | null, source: TokenSource = 'address'): () => void {
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
  // Health names the workspace and the store; a refused token is reported from it.
  const checkHealth = () => {
    void client.health().then(
      (health) => {
        if (live) useSession.setState({ health, authProblem: null });
      },
      (error: unknown) => {
        if (live && error instanceof Error && 'status' in error && error.status === 401) {
          useSession.setState({ authProblem: REFUSED[source] });
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
      useSession.setState({ connection, cursor });
      if (connection === 'lost') wasLost = true;
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
