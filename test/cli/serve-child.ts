// A real `weft serve` in a child process for the tests that talk to it as a terminal or a page
// does: it is ready once it has printed its address, and stop() sends SIGINT, as Ctrl-C does,
// and waits for the exit. The token comes from the address it printed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/weft.js', import.meta.url));

export interface ServeChild {
  url: string;
  token: string;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
  /** A request to the server's API with its token; the answer's status and parsed JSON body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** Starts `weft serve ARGS` in `cwd` with `env` added to this process's environment. */
export function startServe(args: readonly string[], cwd: string, env: Record<string, string | undefined>): Promise<ServeChild> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`weft serve exited ${String(code)} before it printed its address\n${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /Weft Studio: (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)/.exec(out);
      if (match?.[1] === undefined || match[2] === undefined) return;
      const url = match[1];
      const token = match[2];
      resolve({
        url,
        token,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
          await exited;
        },
        async api(method, path, body) {
          const res = await fetch(`${url}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const text = await res.text();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text) as unknown;
          } catch {
            // not JSON: the text itself
          }
          return { status: res.status, body: parsed };
        },
      });
    });
  });
}
