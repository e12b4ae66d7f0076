// Entry point of a script runner: a child process (forked by script-executor.ts, with tsx loaded
// so TypeScript modules work) that calls a workspace module's exported function for one attempt
// at a time and reports over IPC. User code runs here and not in the engine, so a crash, a
// `process.exit`, a blocked event loop or a console.log cannot hurt the engine.
// A runner may serve several attempts in a row (warm start). Module state survives between them,
// as in a warm serverless function, but code never goes stale: before each attempt the runner
// checks every file it has loaded against the disk and, if one changed, answers `stale` and exits
// so the engine starts a fresh one.
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { fileStamp, type LoadedFile } from './script-runner-hooks.ts';
import { isToRunner, type FromRunner, type RunRequest } from './script-runner-protocol.ts';
import { describeMissingExport, describeThrown, displayPath, isPermanentLoadError, isScriptFunction, pickExport } from './script-values.ts';

const loaded = new Map<string, string>();
const requireCache = createRequire(import.meta.url).cache;

const { port1, port2 } = new MessageChannel();
port1.on('message', (file: LoadedFile) => {
  if (!loaded.has(file.path)) loaded.set(file.path, file.stamp);
});
port1.unref();
register(new URL(import.meta.url.endsWith('.ts') ? './script-runner-hooks.ts' : './script-runner-hooks.js', import.meta.url), { data: { port: port2 }, transferList: [port2] });

let current: AbortController | undefined;

function send(message: FromRunner, then?: () => void): void {
  process.send?.(message, undefined, undefined, () => then?.());
}

/** CommonJS files do not pass the ESM load hook; they are found in require's cache instead. */
function recordRequiredFiles(): void {
  for (const path of Object.keys(requireCache)) {
    if (loaded.has(path)) continue;
    const stamp = fileStamp(path);
    if (stamp !== undefined) loaded.set(path, stamp);
  }
}

function staleFile(): string | undefined {
  for (const [path, stamp] of loaded) if (fileStamp(path) !== stamp) return path;
  return undefined;
}

async function runAttempt(request: RunRequest, signal: AbortSignal): Promise<FromRunner> {
  const where = displayPath(request.modulePath, request.cwd);
  let namespace: unknown;
  try {
    process.chdir(request.cwd);
    namespace = await import(pathToFileURL(request.modulePath).href);
  } catch (error) {
    // A module that failed to load stays failed in the module cache: never reuse this runner.
    const thrown = describeThrown(error, request.cwd, { withPlace: false });
    return {
      type: 'failed',
      code: 'script_load_failed',
      message: `cannot load ${where}: ${thrown.message}`,
      ...(isPermanentLoadError(error) ? { retryable: false } : {}),
      reusable: false,
    };
  }
  const fn = pickExport(namespace, request.exportName);
  if (!isScriptFunction(fn)) {
    const message = describeMissingExport(namespace, request.exportName, where);
    return { type: 'failed', code: 'export_not_found', message, retryable: false, reusable: true };
  }
  const input: unknown = JSON.parse(request.inputJson);
  let value: unknown;
  try {
    const partial: unknown = request.partialJson === undefined ? undefined : JSON.parse(request.partialJson);
    value = await fn(input, { ...request.context, ...(partial === undefined ? {} : { partial }), signal });
  } catch (error) {
    return { type: 'failed', ...describeThrown(error, request.cwd), reusable: true };
  }
  return serialise(value, request.maxOutputBytes);
}

function serialise(value: unknown, maxBytes: number): FromRunner {
  let json: string | undefined;
  try {
    json = value === undefined ? 'null' : JSON.stringify(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return notSerialisable(why);
  }
  if (json === undefined) return notSerialisable(`it returned a ${typeof value}`);
  if (Buffer.byteLength(json) > maxBytes) {
    const message = `the script returned more than ${maxBytes} bytes of JSON; write large results to a file and return its path`;
    return { type: 'failed', code: 'output_too_large', message, retryable: false, reusable: true };
  }
  return { type: 'succeeded', outputJson: json };
}

function notSerialisable(why: string): FromRunner {
  const message = `the script's return value is not JSON (${why}); return plain objects, arrays, strings, numbers, booleans or null`;
  return { type: 'failed', code: 'output_not_serialisable', message, retryable: false, reusable: true };
}

async function handleRun(request: RunRequest): Promise<void> {
  const stale = staleFile();
  if (stale !== undefined) {
    send({ type: 'stale', file: stale }, () => process.exit(0));
    return;
  }
  send({ type: 'accepted' });
  const controller = new AbortController();
  current = controller;
  const result = await runAttempt(request, controller.signal);
  current = undefined;
  recordRequiredFiles();
  // An aborted runner is discarded by the engine whatever the script did; just go.
  if (controller.signal.aborted) process.exit(0);
  send(result);
}

process.on('message', (message: unknown) => {
  if (!isToRunner(message)) return;
  if (message.type === 'run') void handleRun(message);
  // An abort that crossed the attempt's result in flight: the engine discards this runner anyway.
  else if (current === undefined) process.exit(0);
  else current.abort(new DOMException(message.reason, 'AbortError'));
});
// The engine went away (exit, crash, kill -9): nobody is left to report to.
process.on('disconnect', () => process.exit(0));
