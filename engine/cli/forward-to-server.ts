// The CLI side of "one store owner, many front ends": a command that changes state, run while a
// `weft serve` owns the same store, is sent to that server (`POST /api/cli`) and its output and
// exit code are the server's answer, byte for byte. The server is found by the endpoint file it
// writes beside the store (serve.json, readable by the user only) and must answer /api/health
// for that store; a stale file (a server that died) is ignored and the command runs here.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CliIo } from './cli-io.ts';
import { storePath } from './store-path.ts';
import { FORWARDED_COMMANDS } from '../service/forwarded-commands.ts';
import { hostedEngine } from '../service/hosted-engine.ts';


interface Endpoint {
  url: string;
  token: string;
  pid: number;
}

/** The --db a command line names (as `--db X` or `--db=X`), before any `--`. */
export function dbOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return undefined;
    if (a === '--db') return args[i + 1];
    if (a?.startsWith('--db=')) return a.slice('--db='.length);
  }
  return undefined;
}

function liveEndpoint(dbPath: string): Endpoint | undefined {
  const file = join(dirname(dbPath), 'serve.json');
  if (!existsSync(file)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object') return undefined;
    const { url, token, pid } = parsed as Record<string, unknown>;
    if (typeof url !== 'string' || typeof token !== 'string' || typeof pid !== 'number') return undefined;
    process.kill(pid, 0); // throws when no such process: the file is stale
    return { url, token, pid };
  } catch {
    return undefined;
  }
}

/**
 * Sends the command to the server owning its store, if one runs; returns its exit code, or
 * undefined when there is no live server (the caller then runs the command itself).
 */
export async function forwardToServer(name: string, args: readonly string[], io: CliIo): Promise<number | undefined> {
  if (!FORWARDED_COMMANDS.has(name)) return undefined;
  const dbPath = storePath(dbOption(args), io.cwd);
  // Inside the server itself the command runs on its engine (hosted-engine.ts), never sent again.
  if (hostedEngine(dbPath) !== undefined) return undefined;
  const endpoint = liveEndpoint(dbPath);
  if (endpoint === undefined) return undefined;
  let response: Response;
  try {
    response = await fetch(`${endpoint.url}/api/cli`, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ argv: [name, ...args], cwd: io.cwd, db: dbPath }),
    });
  } catch {
    return undefined; // the server went away between the check and the call: run here
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || body === null || typeof body !== 'object' || !('code' in body)) {
    const message = body !== null && typeof body === 'object' && 'error' in body ? JSON.stringify(body.error) : `HTTP ${response.status}`;
    io.stderr.write(`weft ${name}: the weft serve that owns ${dbPath} (${endpoint.url}) refused the command: ${message}\n`);
    return 2;
  }
  const { code, stdout, stderr } = body as { code: unknown; stdout: unknown; stderr: unknown };
  if (typeof stdout === 'string') io.stdout.write(stdout);
  if (typeof stderr === 'string') io.stderr.write(stderr);
  return typeof code === 'number' ? code : 2;
}
