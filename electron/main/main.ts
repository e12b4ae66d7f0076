// The Electron entry (bundled to dist/electron/main.cjs): the real electron module and the real
// engine supervisor handed to the shell's wiring (app-shell.ts), which the tests run with fakes.
import { dirname, join } from 'node:path';
import { runShell } from './app-shell.ts';
import { realElectron } from './electron-adapter.ts';
import { startEngineSupervisor } from './engine-supervisor.ts';

const electron = realElectron();
// The app root (package.json, bin/weft.js): the repository in development, the asar when packaged.
const appRoot = electron.app.getAppPath();
const log = (line: string): void => {
  process.stderr.write(`weft-studio: ${line}\n`);
};

runShell({
  electron,
  startEngine: startEngineSupervisor,
  argv: process.argv,
  cwd: process.cwd(),
  execPath: process.execPath,
  appRoot,
  preloadPath: join(dirname(__filename), 'preload.cjs'),
  env: process.env,
  log,
}).catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  log(`could not start: ${message}`);
  electron.dialog.showErrorBox('Weft Studio could not start', message);
  electron.app.exit(1);
});
