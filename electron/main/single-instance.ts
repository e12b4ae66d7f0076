// One app instance per user: a second launch (a double-clicked .weft.json while the app is open)
// hands its arguments to the first and exits. The first focuses its window and opens the files.
// macOS sends double-clicked files as 'open-file' events instead of argv, possibly before the app
// is ready; files that arrive before the window can take them wait in a queue.
import { resolve } from 'node:path';
import type { ElectronSeam, WindowSeam } from './electron-seam.ts';
import { WORKFLOW_FILE, workflowFilesInArgv } from './launch-args.ts';

export interface SingleInstance {
  /** Starts delivering files (queued ones first) to `open`. */
  deliverTo(open: (file: string) => void): void;
}

/**
 * Claims the single-instance lock; undefined when another instance holds it (the caller quits).
 * `window` gives the window to focus on a second launch, once there is one.
 */
export function claimSingleInstance(electron: ElectronSeam, firstArgv: readonly string[], firstCwd: string, window: () => WindowSeam | undefined): SingleInstance | undefined {
  if (!electron.app.requestSingleInstanceLock()) return undefined;
  const pending: string[] = [...workflowFilesInArgv(firstArgv, firstCwd)];
  let deliver: ((file: string) => void) | undefined;
  const open = (file: string): void => {
    if (deliver === undefined) pending.push(file);
    else deliver(file);
  };
  electron.app.onSecondInstance((argv, cwd) => {
    const w = window();
    if (w !== undefined) focusWindow(w);
    for (const file of workflowFilesInArgv(argv, cwd)) open(file);
  });
  electron.app.onOpenFile((event, path) => {
    event.preventDefault();
    if (WORKFLOW_FILE.test(path)) open(resolve(path));
  });
  return {
    deliverTo(target) {
      deliver = target;
      for (const file of pending.splice(0)) target(file);
    },
  };
}

export function focusWindow(window: WindowSeam): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
