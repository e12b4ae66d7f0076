// Messages between the engine and a script runner process (script-runner.ts), over the IPC
// channel of `fork`. Results travel here and not on stdout, so a script's console.log cannot
// corrupt them. Both sides check what they receive: the other end is a separate process that
// may be running someone else's code.

/** Engine → runner: run one attempt. The runner handles one at a time. */
export interface RunRequest {
  type: 'run';
  /** Absolute path of the module. */
  modulePath: string;
  exportName: string;
  /** The attempt's input as JSON text (so both sides agree on what JSON means). */
  inputJson: string;
  /** Working directory for the attempt (the workflow folder). */
  cwd: string;
  context: { runId: string; stepId: string; activation: number; attempt: number; idempotencyKey?: string };
  /** The partial attempt this one continues (`{attempt, output, remaining}`) as JSON text; the script gets it as `context.partial`. */
  partialJson?: string;
  maxOutputBytes: number;
}

/** Engine → runner: the attempt is aborted; the script's signal fires with this reason. */
export interface AbortRequest {
  type: 'abort';
  reason: string;
}

export type ToRunner = RunRequest | AbortRequest;

export type RunnerFailure = { code: string; message: string; retryable?: boolean };

export type FromRunner =
  /** The runner loaded a file that changed since; it exits without running anything. */
  | { type: 'stale'; file: string }
  /** The request was received: from here on the script's code may run. */
  | { type: 'accepted' }
  | { type: 'succeeded'; outputJson: string }
  /** `reusable: false` when the runner's module cache may now hold a broken module. */
  | ({ type: 'failed'; reusable: boolean } & RunnerFailure);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';

export function isFromRunner(v: unknown): v is FromRunner {
  if (!isRecord(v)) return false;
  switch (v['type']) {
    case 'stale':
      return isString(v['file']);
    case 'accepted':
      return true;
    case 'succeeded':
      return isString(v['outputJson']);
    case 'failed':
      return (
        isString(v['code']) &&
        isString(v['message']) &&
        typeof v['reusable'] === 'boolean' &&
        (v['retryable'] === undefined || typeof v['retryable'] === 'boolean')
      );
    default:
      return false;
  }
}

export function isToRunner(v: unknown): v is ToRunner {
  if (!isRecord(v)) return false;
  if (v['type'] === 'abort') return isString(v['reason']);
  if (v['type'] !== 'run') return false;
  const c = v['context'];
  return (
    isString(v['modulePath']) &&
    isString(v['exportName']) &&
    isString(v['inputJson']) &&
    isString(v['cwd']) &&
    typeof v['maxOutputBytes'] === 'number' &&
    (v['partialJson'] === undefined || isString(v['partialJson'])) &&
    isRecord(c) &&
    isString(c['runId']) &&
    isString(c['stepId']) &&
    typeof c['activation'] === 'number' &&
    typeof c['attempt'] === 'number' &&
    (c['idempotencyKey'] === undefined || isString(c['idempotencyKey']))
  );
}
