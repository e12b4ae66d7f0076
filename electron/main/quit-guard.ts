// Closing the window (or quitting) with unsaved changes asks first: Save / Don't save / Cancel.
// Save asks the app to save (menu action file.save) and closes once the app reports the document
// clean; if saving fails the app stays dirty and the window stays open, showing the app's error.
import { DESKTOP_CHANNELS } from '../../shared/desktop/preload-contract.ts';
import type { DocumentTracker } from './document-state.ts';
import type { ElectronSeam, WindowSeam } from './electron-seam.ts';

export const SAVE = 0;
export const DONT_SAVE = 1;
export const CANCEL = 2;

export function guardUnsavedClose(electron: ElectronSeam, window: WindowSeam, document: DocumentTracker): void {
  let allowClose = false;
  let quitting = false;
  let asking = false;
  let closeAfterSave: (() => void) | undefined;
  electron.app.on('before-quit', () => {
    quitting = true;
  });
  const closeNow = (): void => {
    allowClose = true;
    window.close();
    // On macOS closing the last window does not quit; a quit that the prompt interrupted goes on.
    if (quitting && electron.platform === 'darwin') electron.app.quit();
  };
  window.on('close', (event) => {
    if (allowClose || !document.dirty) return;
    event.preventDefault();
    if (asking) return;
    asking = true;
    const name = document.current?.title ?? 'this workflow';
    void electron.dialog
      .showMessageBox(window, {
        type: 'warning',
        buttons: ['Save', "Don't save", 'Cancel'],
        defaultId: SAVE,
        cancelId: CANCEL,
        message: `Save the changes to ${name} before closing?`,
        detail: "Your changes are lost if you don't save them.",
      })
      .then(({ response }) => {
        asking = false;
        if (response === DONT_SAVE) return closeNow();
        if (response !== SAVE) {
          quitting = false;
          return undefined;
        }
        closeAfterSave?.();
        closeAfterSave = document.onChange((state) => {
          if (state.dirty) return;
          closeAfterSave?.();
          closeAfterSave = undefined;
          closeNow();
        });
        window.webContents.send(DESKTOP_CHANNELS.menuAction, 'file.save');
        return undefined;
      });
  });
}
