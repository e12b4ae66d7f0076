// The app's one set of API clients, built from the one token source (current-token.ts): every HTTP call
// and the stream take the token from here, so a new token (the desktop shell restarted the engine,
// an address with a new token opened in this tab) reaches every client at once. Tests build the
// clients themselves with `new XClient(token, base)`.
import { ApiClient } from './api-client.ts';
import { BulkClient } from './bulk-client.ts';
import { CompareClient } from './compare-client.ts';
import { PayloadClient } from './payload-client.ts';
import { PolicyClient } from './policy-client.ts';
import { ReplayClient } from './replay-client.ts';
import { RunActionsClient } from './run-actions-client.ts';
import { StatsClient } from './stats-client.ts';
import { TimelineClient } from './timeline-client.ts';
import { WorkflowFilesClient } from './workflow-files-client.ts';
import { currentToken } from './current-token.ts';

export interface Clients {
  token: string;
  /** Health, workflows, runs, tasks: the reads most pages show. */
  api: ApiClient;
  /** The editor's calls that write workflow files. */
  files: WorkflowFilesClient;
  /** A run's timeline and its events page by page. */
  timeline: TimelineClient;
  compare: CompareClient;
  stats: StatsClient;
  /** Large values of a run, by path. */
  payload: PayloadClient;
  /** A run, or a workflow's recent runs, replayed on another definition. */
  replay: ReplayClient;
  /** Start a run, operator actions, task answers. */
  actions: RunActionsClient;
  /** One action on many runs: preview, then apply run by run. */
  bulk: BulkClient;
  /** The workspace policy file: read, and save. */
  policy: PolicyClient;
}

let built: Clients | null = null;

/** The clients on the current token, or null while the app has none. */
export function clients(): Clients | null {
  const token = currentToken();
  if (token === null) return null;
  if (built?.token !== token) {
    built = {
      token,
      api: new ApiClient(token),
      files: new WorkflowFilesClient(token),
      timeline: new TimelineClient(token),
      compare: new CompareClient(token),
      stats: new StatsClient(token),
      payload: new PayloadClient(token),
      actions: new RunActionsClient(token),
      replay: new ReplayClient(token),
      bulk: new BulkClient(token),
      policy: new PolicyClient(token),
    };
  }
  return built;
}

/** The clients, or an error saying what to do when the app has no token. */
export function requireClients(): Clients {
  const c = clients();
  if (c === null) throw new Error('the app is not connected to an engine: open the address that `weft serve` printed');
  return c;
}
