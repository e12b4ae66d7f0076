import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS } from '../../shared/desktop/preload-contract.ts';
import { DocumentTracker } from '../../electron/main/document-state.ts';
import { CANCEL, DONT_SAVE, guardUnsavedClose, SAVE } from '../../electron/main/quit-guard.ts';
import { FakeElectron, FakeEvent, windowOptions, type FakeWindow } from './fake-electron.ts';

function setup(platform: NodeJS.Platform = 'linux'): { electron: FakeElectron; window: FakeWindow; document: DocumentTracker } {
  const electron = new FakeElectron({ platform });
  const window = electron.createWindow(windowOptions());
  const document = new DocumentTracker(platform, () => '/ws');
  guardUnsavedClose(electron, window, document);
  return { electron, window, document };
}
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('closing with unsaved changes', () => {
  it('closes at once when nothing is unsaved', () => {
    const { electron, window } = setup();
    window.close();
    expect(window.destroyed).toBe(true);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('asks Save / Don\'t save / Cancel, naming the document', async () => {
    const { electron, window, document } = setup();
    document.update({ title: 'order.weft.json', dirty: true }, window);
    electron.messageBoxResponse = CANCEL;
    window.close();
    await settle();
    expect(window.destroyed).toBe(false);
    expect(electron.messageBoxes[0]).toMatchObject({ buttons: ['Save', "Don't save", 'Cancel'], cancelId: CANCEL, defaultId: SAVE, message: 'Save the changes to order.weft.json before closing?' });
  });

  it("Don't save closes", async () => {
    const { electron, window, document } = setup();
    document.update({ title: 'a', dirty: true }, window);
    electron.messageBoxResponse = DONT_SAVE;
    window.close();
    await settle();
    expect(window.destroyed).toBe(true);
  });

  it('Save sends file.save and closes once the app reports the document saved', async () => {
    const { electron, window, document } = setup();
    document.update({ title: 'a', dirty: true }, window);
    electron.messageBoxResponse = SAVE;
    window.close();
    await settle();
    expect(window.webContents.sent).toEqual([{ channel: DESKTOP_CHANNELS.menuAction, payload: 'file.save' }]);
    expect(window.destroyed).toBe(false);
    document.update({ title: 'a', dirty: true }, window);
    expect(window.destroyed).toBe(false);
    document.update({ title: 'a', dirty: false }, window);
    expect(window.destroyed).toBe(true);
  });

  it('a save that fails (still dirty) keeps the window open', async () => {
    const { electron, window, document } = setup();
    document.update({ title: 'a', dirty: true }, window);
    electron.messageBoxResponse = SAVE;
    window.close();
    await settle();
    expect(window.destroyed).toBe(false);
    expect(electron.messageBoxes).toHaveLength(1);
  });

  it('on macOS, a quit the prompt interrupted goes on after Don\'t save', async () => {
    const { electron, window, document } = setup('darwin');
    document.update({ title: 'a', dirty: true }, window);
    electron.appEvents.emit('before-quit', new FakeEvent());
    electron.messageBoxResponse = DONT_SAVE;
    window.close();
    await settle();
    expect(window.destroyed).toBe(true);
    expect(electron.quitCalls).toBe(1);
  });
});
