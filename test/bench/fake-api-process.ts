// examples/fake-api.mjs as a real child process on a free port, as the README's "Try the
// examples" starts it, for benchmarks that run the HTTP examples through the `weft` CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../examples/fake-api.mjs', import.meta.url));
const READY = /fake API listening on (http:\/\/127\.0\.0\.1:\d+)/;

export interface FakeApiProcess {
  url: string;
  /** Stops the server and waits for the process to exit. */
  stop(): Promise<void>;
}

export async function startFakeApiProcess(): Promise<FakeApiProcess> {
  const child = spawn(process.execPath, [SCRIPT, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = READY.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`fake API exited with ${code} before listening: ${err}`)));
  });
  // Its request log goes nowhere from now on, but must still be read so the pipe never fills.
  child.stdout.resume();
  return { url, stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

/** The current revision of a record of the fake records API (a write must name it as its base). */
export async function recordRevision(apiUrl: string, recordId: string): Promise<number> {
  const res = await fetch(`${apiUrl}/records/${recordId}`);
  const body: unknown = await res.json();
  const revision = body !== null && typeof body === 'object' && 'revision' in body ? body.revision : undefined;
  if (!res.ok || typeof revision !== 'number') throw new Error(`GET /records/${recordId} answered ${res.status}: ${JSON.stringify(body)}`);
  return revision;
}
