// The connection to the engine: what /api/health said, and the live stream's state.
// start-session.ts fills it in (started once by main.tsx, or by the desktop session); views read
// single fields through selectors. The clients are renderer/api/clients.ts's, the server data the
// query cache's (core/query-client.ts): this store knows no feature.
import { create } from 'zustand';
import type { Health } from '../api/api-types.ts';
import type { ConnectionState } from '../api/event-stream.ts';

interface SessionStore {
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
  health: null,
  connection: 'connecting',
  cursor: 0,
  authProblem: null,
  staleToken: null,
  lostAttempts: 0,
  tokenSource: 'address',
  eventsSeen: 0,
}));

/** Where the token came from: the address `weft serve` printed, or the desktop shell. */
export type TokenSource = 'address' | 'desktop';
