// The one file that imports 'electron' at runtime: it maps the real module onto the seam the rest
// of electron/main/ is written (and tested) against.
import { BrowserWindow, Menu, app, dialog, ipcMain, safeStorage, screen, shell, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import type { ElectronSeam, IpcEventSeam, PreventableEvent, SessionSeam, WindowOptions, WindowSeam } from './electron-seam.ts';

const ipcEvent = (event: IpcMainEvent | IpcMainInvokeEvent): IpcEventSeam => ({
  sender: { id: event.sender.id, getURL: () => event.sender.getURL() },
  // Only the top frame speaks for the app: a sub-frame (parent set) or a frame that navigated away
  // or was destroyed (senderFrame null) gets no URL, and the sender check refuses it.
  senderFrameUrl: event.senderFrame !== null && event.senderFrame.parent === null ? event.senderFrame.url : undefined,
});

function adaptWindow(window: BrowserWindow): WindowSeam {
  const { webContents } = window;
  const { session } = webContents;
  const sessionSeam: SessionSeam = {
    setPermissionRequestHandler: (handler) => session.setPermissionRequestHandler((_wc, permission, callback) => handler(permission, callback)),
    setPermissionCheckHandler: (handler) => session.setPermissionCheckHandler((_wc, permission) => handler(permission)),
    onHeadersReceived: (listener) => session.webRequest.onHeadersReceived((details, callback) => listener(details, callback)),
    onBeforeRequest: (listener) => session.webRequest.onBeforeRequest((details, callback) => listener(details, callback)),
  };
  return {
    webContents: {
      id: webContents.id,
      getURL: () => webContents.getURL(),
      send: (channel, payload) => webContents.send(channel, payload),
      on: (event, listener) => {
        if (event === 'will-navigate') webContents.on('will-navigate', (e) => listener(e, e.url));
        else webContents.on('will-redirect', (e) => listener(e, e.url));
      },
      setWindowOpenHandler: (handler) => webContents.setWindowOpenHandler((details) => handler(details)),
      reload: () => webContents.reload(),
      toggleDevTools: () => webContents.toggleDevTools(),
    },
    session: sessionSeam,
    loadURL: (url) => window.loadURL(url),
    setTitle: (title) => window.setTitle(title),
    setDocumentEdited: (edited) => window.setDocumentEdited(edited),
    getNormalBounds: () => window.getNormalBounds(),
    isMaximized: () => window.isMaximized(),
    isMinimized: () => window.isMinimized(),
    isDestroyed: () => window.isDestroyed(),
    maximize: () => window.maximize(),
    restore: () => window.restore(),
    show: () => window.show(),
    focus: () => window.focus(),
    close: () => window.close(),
    on: (event: WindowEvent, listener: (e: PreventableEvent) => void) => {
      if (event === 'close') window.on('close', (e) => listener(e));
      else if (event === 'closed') window.on('closed', () => listener(NO_EVENT));
      else if (event === 'ready-to-show') window.on('ready-to-show', () => listener(NO_EVENT));
      else if (event === 'resize') window.on('resize', () => listener(NO_EVENT));
      else if (event === 'move') window.on('move', () => listener(NO_EVENT));
      else if (event === 'maximize') window.on('maximize', () => listener(NO_EVENT));
      else window.on('unmaximize', () => listener(NO_EVENT));
    },
  };
}

type WindowEvent = 'close' | 'closed' | 'resize' | 'move' | 'maximize' | 'unmaximize' | 'ready-to-show';
const NO_EVENT: PreventableEvent = { preventDefault: () => undefined };

const windows = new WeakMap<WindowSeam, BrowserWindow>();
const real = (window: WindowSeam): BrowserWindow => {
  const found = windows.get(window);
  if (found === undefined) throw new Error('a window the adapter did not create');
  return found;
};

export function realElectron(): ElectronSeam {
  return {
    platform: process.platform,
    app: {
      isPackaged: app.isPackaged,
      getName: () => app.getName(),
      getVersion: () => app.getVersion(),
      getAppPath: () => app.getAppPath(),
      getPath: (name) => app.getPath(name),
      requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
      whenReady: () => app.whenReady(),
      onSecondInstance: (listener) => {
        app.on('second-instance', (_event, argv, cwd) => listener(argv, cwd));
      },
      onOpenFile: (listener) => {
        app.on('open-file', (event, path) => listener(event, path));
      },
      on: (event, listener) => {
        if (event === 'before-quit') app.on('before-quit', (e) => listener(e));
        else app.on('will-quit', (e) => listener(e));
      },
      onWindowAllClosed: (listener) => {
        app.on('window-all-closed', () => listener());
      },
      quit: () => app.quit(),
      exit: (code) => app.exit(code),
      addRecentDocument: (path) => app.addRecentDocument(path),
    },
    createWindow: (options: WindowOptions) => {
      const browserWindow = new BrowserWindow(options);
      const seam = adaptWindow(browserWindow);
      windows.set(seam, browserWindow);
      return seam;
    },
    ipcMain: {
      handle: (channel, handler) => ipcMain.handle(channel, (event, arg: unknown) => handler(ipcEvent(event), arg)),
      on: (channel, listener) => {
        ipcMain.on(channel, (event, arg: unknown) => listener(ipcEvent(event), arg));
      },
    },
    dialog: {
      showOpenDialog: (window, options) => dialog.showOpenDialog(real(window), options),
      showSaveDialog: (window, options) => dialog.showSaveDialog(real(window), options),
      showMessageBox: (window, options) => dialog.showMessageBox(real(window), options),
      showErrorBox: (title, content) => dialog.showErrorBox(title, content),
    },
    shell: {
      openExternal: (url) => shell.openExternal(url),
      showItemInFolder: (path) => shell.showItemInFolder(path),
    },
    setApplicationMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
    safeStorage: {
      isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
      encryptString: (plain) => safeStorage.encryptString(plain),
      decryptString: (encrypted) => safeStorage.decryptString(encrypted),
    },
    screen: {
      getAllDisplays: () => screen.getAllDisplays().map((d) => ({ workArea: d.workArea })),
    },
  };
}
