// The connection to the engine: the API client, what /api/health said, and the live stream's
// state. start-session.ts fills it in (started once by main.tsx, or by the desktop session);
// views read single fields through selectors, and the engine-data stores call through
// `requireClient`.
import { create } from 'zustand';
import type { ApiClient } from '../api/api-client.ts';
import type { WorkflowFilesClient } from '../api/workflow-files-client.ts';
import type { CompareClient } from '../api/compare-client.ts';
import type { TimelineClient } from '../api/timeline-client.ts';
import type { Health } from '../api/api-types.ts';
import type { ConnectionState } from '../api/event-stream.ts';

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
  /** Set when the server this page was connected to restarted with a new token: what happened and what to do. */
  staleToken: string | null;
  /** Connection attempts lost in a row (0 while connected). */
  lostAttempts: number;
  /** Where the token came from, so messages say what to do in a browser or in the desktop app. */
  tokenSource: TokenSource;
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
  staleToken: null,
  lostAttempts: 0,
  tokenSource: 'address',
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
