// `weft serve [--workspace DIR] [--db PATH] [--port N] [--open]`: the engine server and the app.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from '../command.ts';
import { withUserErrors } from '../cli-errors.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { InputError } from '../input-error.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { readVersion } from '../read-version.ts';
import { storeName, storePath } from '../store-path.ts';
import { UsageError } from '../usage-error.ts';
import { isPgStoreText } from '../../service/store-text.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the app and the engine API on 127.0.0.1 for a workspace',
  usage: 'weft serve [--workspace DIR] [--db PATH | --store URL [--no-worker]] [--port N] [--open]',
  help: `Starts one engine for the workspace's store (it continues unfinished runs and holds the
store's lease), and serves the Weft Studio app and its API on 127.0.0.1 only. Prints one line:

  Weft Studio: http://127.0.0.1:PORT/#token=TOKEN

Open it in a browser. The token changes at every start; it is also written, readable only by
you, to serve.json beside the store. A supervisor that restarts the server (the desktop app)
keeps its token with WEFT_TOKEN (43 or more characters of A-Z a-z 0-9 _ -), so open pages
reconnect by themselves. Stop with Ctrl-C: running attempts are recorded as at any
engine stop, and the next engine continues them.

  --workspace DIR   the folder whose *.weft.json files the app shows (default: this folder)
  --db PATH         the store (default $WEFT_DB, else .weft/weft.db in the workspace)
  --store URL       a PostgreSQL store shared with weft worker processes (default
                    $WEFT_STORE): postgres://user@host/database[?schema=NAME]; the
                    server's engine is one of the workers (docs/scale-out.md)
  --no-worker       with --store: the server's engine starts no step itself; it hands
                    every run it starts or acts on to the workers
  --port N          the port (default 0: a free one)
  --open            open the app in the default browser`,

  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      workspace: { type: 'string' },
      db: { type: 'string' },
      store: { type: 'string' },
      'no-worker': { type: 'boolean' },
      port: { type: 'string' },
      open: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number from 0 to 65535 (0 picks a free one)');
    return withUserErrors('serve', io, async () => {
      const workspace = resolve(io.cwd, values.workspace ?? '.');
      if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new InputError(`--workspace ${workspace} is not a folder`);
      if (values.store !== undefined && values.db !== undefined) throw new UsageError('give the store once: --store URL or --db PATH, not both');
      const given = values.store ?? (values.db === undefined ? process.env['WEFT_STORE'] : undefined);
      const db = given === undefined || given === '' ? storePath(values.db, io.cwd, process.env, workspace) : given;
      const shared = isPgStoreText(db);
      if (values['no-worker'] === true && !shared) throw new UsageError('--no-worker is for a PostgreSQL store (--store postgres://…), whose runs weft worker processes drive');
      const [{ serve }, { builtAppDir }] = await Promise.all([import('../../server/serve.ts'), import('../../server/app-dir.ts')]);
      if (!shared) mkdirSync(dirname(db), { recursive: true });
      const intake = values['no-worker'] === true;
      let fatal: unknown;
      let wake: () => void = () => {};
      const stopped = new Promise<void>((r) => {
        wake = r;
      });
      const token = process.env['WEFT_TOKEN'];
      if (token !== undefined && !/^[A-Za-z0-9_-]{43,200}$/.test(token)) throw new InputError('WEFT_TOKEN must be 43 to 200 characters of A-Z a-z 0-9 _ - (a 256-bit random value, base64url); unset it to get a fresh token');
      const serving = await serve({
        ...(token === undefined ? {} : { token }),
        workspace,
        storePath: db,
        port,
        appDir: builtAppDir(),
        version: readVersion(),
        ...(shared ? { shared: { role: intake ? ('intake' as const) : ('serve' as const), claim: !intake, intake, workspace, log: (line: string) => void io.stderr.write(`weft serve: ${line}\n`) } } : {}),
        onFatal: (error) => {
          fatal = error;
          wake();
        },
      });
      const address = `${serving.url}/#token=${serving.token}`;
      io.stdout.write(`Weft Studio: ${address}\n`);
      if (values.open === true) openBrowser(address);
      const onSignal = () => wake();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      await stopped;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await serving.stop();
      if (fatal !== undefined) {
        io.stderr.write(`weft serve: the engine stopped: ${fatal instanceof Error ? fatal.message : String(fatal)} (store ${await storeName(db, io.cwd)})\n`);
        return 2;
      }
      io.stderr.write('weft serve: stopped\n');
      return EXIT_OK;
    });
  },
};

function openBrowser(address: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [address], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser to open: the address is printed above.
  }
}
