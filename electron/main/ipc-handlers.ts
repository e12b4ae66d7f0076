// The main side of the preload contract. Every message is checked twice before main acts on it:
// it must come from the main window's own page at the engine's origin (not a sub-frame, not some
// other page the window was tricked onto), and its payload must parse with the contract's schema.
// Anything else is refused with an error that says what was wrong; nothing is half-done.
import { statSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import {
  DESKTOP_CHANNELS,
  documentStateSchema,
  externalLinkRequestSchema,
  openDialogRequestSchema,
  saveDialogRequestSchema,
  type DesktopSession,
  type OpenDialogAnswer,
  type SaveDialogAnswer,
} from '../../shared/desktop/preload-contract.ts';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import type { DocumentTracker } from './document-state.ts';
import type { ElectronSeam, IpcEventSeam, WindowSeam } from './electron-seam.ts';
import { checkExternalLink } from './link-check.ts';

export const MAX_OPEN_BYTES = 16 * 1024 * 1024;
const WORKFLOW_FILTERS = [{ name: 'Weft workflows', extensions: ['json'] }];

export interface IpcDeps {
  window(): WindowSeam | undefined;
  /** The engine's current endpoint; undefined while it is (re)starting. */
  session(): DesktopSession | undefined;
  document: DocumentTracker;
  /** Where refused messages are logged (they never reach a dialog: a page cannot spam the user). */
  log(line: string): void;
}

export class IpcRefused extends Error {}

/** Why `event` may not speak for the app, or undefined when it may. */
export function senderProblem(event: IpcEventSeam, deps: IpcDeps): string | undefined {
  const window = deps.window();
  if (window === undefined || window.isDestroyed() || event.sender.id !== window.webContents.id) return 'the message did not come from the main window';
  const session = deps.session();
  const frame = event.senderFrameUrl;
  if (session === undefined) return 'the engine is not running yet; try again in a moment';
  let origin: string | undefined;
  try {
    origin = frame === undefined ? undefined : new URL(frame).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== session.url) return `the message came from ${origin ?? 'a frame without an origin'}, not from the app at ${session.url}`;
  return undefined;
}

function parse<S extends z.ZodType>(schema: S, arg: unknown, channel: string): z.infer<S> {
  const parsed = schema.safeParse(arg);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'the request' : issue.path.join('.');
  throw new IpcRefused(`${channel}: ${where}: ${issue?.message ?? 'invalid'}; send what the preload contract (shared/desktop/preload-contract.ts) describes`);
}

export function registerIpcHandlers(electron: ElectronSeam, deps: IpcDeps): void {
  const guarded = <T>(channel: string, run: (window: WindowSeam, arg: unknown) => Promise<T> | T): void => {
    electron.ipcMain.handle(channel, async (event, arg) => {
      const problem = senderProblem(event, deps);
      const window = deps.window();
      if (problem !== undefined || window === undefined) {
        deps.log(`refused ${channel}: ${problem ?? 'no window'}`);
        throw new IpcRefused(`${channel} refused: ${problem ?? 'no window'}`);
      }
      return run(window, arg);
    });
  };

  guarded(DESKTOP_CHANNELS.session, (_window, arg): DesktopSession => {
    if (arg !== undefined) throw new IpcRefused(`${DESKTOP_CHANNELS.session}: takes no argument`);
    const session = deps.session();
    if (session === undefined) throw new IpcRefused('the engine is not running yet; try again in a moment');
    return session;
  });

  guarded(DESKTOP_CHANNELS.openFile, async (window, arg): Promise<OpenDialogAnswer> => {
    parse(openDialogRequestSchema, arg, DESKTOP_CHANNELS.openFile);
    const answer = await electron.dialog.showOpenDialog(window, { title: 'Import a workflow', properties: ['openFile'], filters: WORKFLOW_FILTERS });
    const path = answer.filePaths[0];
    if (answer.canceled || path === undefined) return null;
    return { name: basename(path), content: readWorkflowFile(path) };
  });

  guarded(DESKTOP_CHANNELS.saveFile, async (window, arg): Promise<SaveDialogAnswer> => {
    const request = parse(saveDialogRequestSchema, arg, DESKTOP_CHANNELS.saveFile);
    const folder = deps.session()?.workspace ?? electron.app.getPath('documents');
    const answer = await electron.dialog.showSaveDialog(window, { title: 'Export the workflow', defaultPath: join(folder, request.suggestedName), filters: WORKFLOW_FILTERS });
    if (answer.canceled || answer.filePath === undefined || answer.filePath === '') return { saved: false };
    try {
      writeFileAtomic(answer.filePath, request.content, { mode: 0o644 });
    } catch (e) {
      throw new IpcRefused(`could not write ${answer.filePath}: ${errorText(e)}; choose a folder you can write to`);
    }
    return { saved: true, path: answer.filePath };
  });

  guarded(DESKTOP_CHANNELS.openExternal, async (_window, arg): Promise<boolean> => {
    const request = parse(externalLinkRequestSchema, arg, DESKTOP_CHANNELS.openExternal);
    const verdict = checkExternalLink(request.url, deps.session()?.url);
    if (!verdict.ok) {
      deps.log(`not opened in the browser: ${request.url.slice(0, 200)}: ${verdict.reason}`);
      return false;
    }
    await electron.shell.openExternal(verdict.url);
    return true;
  });

  electron.ipcMain.on(DESKTOP_CHANNELS.documentState, (event, arg) => {
    const problem = senderProblem(event, deps);
    const parsed = documentStateSchema.safeParse(arg);
    if (problem !== undefined || !parsed.success) {
      deps.log(`refused ${DESKTOP_CHANNELS.documentState}: ${problem ?? parsed.error?.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    deps.document.update(parsed.data, deps.window());
  });
}

/** A workflow file's text; a clear error for a folder, an unreadable file or one over 16 MiB. */
export function readWorkflowFile(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new IpcRefused(`${path} is not a file; choose a .weft.json file`);
    size = stat.size;
  } catch (e) {
    if (e instanceof IpcRefused) throw e;
    throw new IpcRefused(`cannot read ${path}: ${errorText(e)}`);
  }
  if (size > MAX_OPEN_BYTES) throw new IpcRefused(`${basename(path)} is ${(size / 1024 / 1024).toFixed(1)} MiB; a workflow file may be at most 16 MiB`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new IpcRefused(`cannot read ${path}: ${errorText(e)}`);
  }
}

const errorText = (e: unknown): string => (e !== null && typeof e === 'object' && 'code' in e && typeof e.code === 'string' ? e.code : e instanceof Error ? e.message : String(e));
