// A fake of the Electron seam that records every call, for the main process's unit tests. It keeps
// the handlers main registers (navigation, permissions, web requests, IPC, app events) so a test
// can fire them the way Electron would and assert what main answered.
import type {
  BeforeRequestDetails,
  ElectronSeam,
  HeadersReceivedDetails,
  IpcEventSeam,
  MenuItemSpec,
  MessageBoxOptions,
  PermissionCheckHandler,
  PermissionRequestHandler,
  PreventableEvent,
  Rect,
  ResponseHeaders,
  WindowOptions,
  WindowSeam,
} from '../../electron/main/electron-seam.ts';

type Listener = (...args: never[]) => unknown;

export class FakeEvent implements PreventableEvent {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => unknown)(...args);
  }
}

export class FakeSession {
  permissionRequest: PermissionRequestHandler | undefined;
  permissionCheck: PermissionCheckHandler | undefined;
  headersListener: ((d: HeadersReceivedDetails, cb: (r: { responseHeaders?: ResponseHeaders }) => void) => void) | undefined;
  beforeRequest: ((d: BeforeRequestDetails, cb: (r: { cancel: boolean }) => void) => void) | undefined;
  setPermissionRequestHandler(h: PermissionRequestHandler): void {
    this.permissionRequest = h;
  }
  setPermissionCheckHandler(h: PermissionCheckHandler): void {
    this.permissionCheck = h;
  }
  onHeadersReceived(l: NonNullable<FakeSession['headersListener']>): void {
    this.headersListener = l;
  }
  onBeforeRequest(l: NonNullable<FakeSession['beforeRequest']>): void {
    this.beforeRequest = l;
  }
}

let nextId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextId++;
  url = '';
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  reloads = 0;
  devToolsToggles = 0;
  getURL(): string {
    return this.url;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = h;
  }
  reload(): void {
    this.reloads++;
  }
  toggleDevTools(): void {
    this.devToolsToggles++;
  }
  /** Fires a navigation event as Electron would; true when main let it through. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    const e = new FakeEvent();
    this.emit(event, e, url);
    return !e.prevented;
  }
}

export class FakeWindow extends Emitter implements WindowSeam {
  readonly webContents = new FakeWebContents();
  readonly session = new FakeSession();
  title = '';
  documentEdited = false;
  maximized = false;
  minimized = false;
  destroyed = false;
  shown = false;
  focused = 0;
  closeCalls = 0;
  loaded: string[] = [];
  bounds: Rect;
  constructor(readonly options: WindowOptions) {
    super();
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
  }
  setTitle(t: string): void {
    this.title = t;
  }
  setDocumentEdited(e: boolean): void {
    this.documentEdited = e;
  }
  getNormalBounds(): Rect {
    return this.bounds;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  maximize(): void {
    this.maximized = true;
  }
  restore(): void {
    this.minimized = false;
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused++;
  }
  /** Like Electron: 'close' listeners may prevent it; otherwise the window is destroyed. */
  close(): void {
    this.closeCalls++;
    const e = new FakeEvent();
    this.emit('close', e);
    if (!e.prevented) {
      this.destroyed = true;
      this.emit('closed');
    }
  }
}

export interface FakeOptions {
  platform?: NodeJS.Platform;
  isPackaged?: boolean;
  userData?: string;
  encryptionAvailable?: boolean;
  singleInstanceLock?: boolean;
  displays?: Rect[];
}

/** A reversible byte transform: what it "encrypts" is not readable as the plain text on disk. */
const scramble = (bytes: Buffer): Buffer => Buffer.from(bytes.map((b, i) => b ^ (0x5a + (i % 7))));

export class FakeElectron implements ElectronSeam {
  readonly platform: NodeJS.Platform;
  readonly windows: FakeWindow[] = [];
  readonly appEvents = new Emitter();
  readonly handlers = new Map<string, (event: IpcEventSeam, arg: unknown) => unknown>();
  readonly listeners = new Map<string, (event: IpcEventSeam, arg: unknown) => void>();
  readonly opened: string[] = [];
  readonly revealed: string[] = [];
  readonly messageBoxes: MessageBoxOptions[] = [];
  readonly errorBoxes: Array<{ title: string; content: string }> = [];
  readonly recentDocuments: string[] = [];
  menu: MenuItemSpec[] | undefined;
  quitCalls = 0;
  exitCodes: number[] = [];
  /** What the next dialogs answer; tests set these. */
  openDialogAnswer: { canceled: boolean; filePaths: string[] } = { canceled: true, filePaths: [] };
  saveDialogAnswer: { canceled: boolean; filePath?: string } = { canceled: true };
  messageBoxResponse = 0;
  readonly openDialogs: unknown[] = [];
  readonly saveDialogs: unknown[] = [];
  encryptionAvailable: boolean;
  displays: Rect[];

  constructor(readonly options: FakeOptions = {}) {
    this.platform = options.platform ?? 'linux';
    this.encryptionAvailable = options.encryptionAvailable ?? true;
    this.displays = options.displays ?? [{ x: 0, y: 0, width: 1920, height: 1080 }];
    // Field initializers run before the constructor's parameter property is set, so the app's
    // packaged flag is copied in here.
    this.app = { ...this.app, isPackaged: options.isPackaged ?? false };
  }

  app: ElectronSeam['app'] = {
    isPackaged: false,
    getName: () => 'Weft Studio',
    getVersion: () => '0.1.0',
    getAppPath: () => '/app',
    getPath: (name) => (name === 'userData' ? (this.options.userData ?? '/tmp/weft-fake-user-data') : '/home/user'),
    requestSingleInstanceLock: () => this.options.singleInstanceLock ?? true,
    whenReady: async () => undefined,
    onSecondInstance: (listener) => this.appEvents.on('second-instance', (_event: unknown, argv: string[], cwd: string) => listener(argv, cwd)),
    onOpenFile: (listener) => this.appEvents.on('open-file', listener),
    on: (event, listener) => this.appEvents.on(event, listener),
    onWindowAllClosed: (listener) => this.appEvents.on('window-all-closed', listener),
    quit: () => {
      this.quitCalls++;
    },
    exit: (code: number) => {
      this.exitCodes.push(code);
    },
    addRecentDocument: (path: string) => {
      this.recentDocuments.push(path);
    },
  };

  createWindow(options: WindowOptions): FakeWindow {
    const w = new FakeWindow(options);
    this.windows.push(w);
    return w;
  }

  readonly ipcMain: ElectronSeam['ipcMain'] = {
    handle: (channel, handler) => {
      this.handlers.set(channel, handler);
    },
    on: (channel, listener) => {
      this.listeners.set(channel, listener);
    },
  };

  readonly dialog: ElectronSeam['dialog'] = {
    showOpenDialog: async (_w, options) => {
      this.openDialogs.push(options);
      return this.openDialogAnswer;
    },
    showSaveDialog: async (_w, options) => {
      this.saveDialogs.push(options);
      return this.saveDialogAnswer;
    },
    showMessageBox: async (_w, options) => {
      this.messageBoxes.push(options);
      return { response: this.messageBoxResponse };
    },
    showErrorBox: (title, content) => {
      this.errorBoxes.push({ title, content });
    },
  };

  readonly shell: ElectronSeam['shell'] = {
    openExternal: async (url) => {
      this.opened.push(url);
    },
    showItemInFolder: (path) => {
      this.revealed.push(path);
    },
  };

  setApplicationMenu(template: MenuItemSpec[]): void {
    this.menu = template;
  }

  readonly safeStorage: ElectronSeam['safeStorage'] = {
    isEncryptionAvailable: () => this.encryptionAvailable,
    encryptString: (plain) => {
      if (!this.encryptionAvailable) throw new Error('Encryption is not available.');
      return scramble(Buffer.from(plain, 'utf8'));
    },
    decryptString: (encrypted) => scramble(encrypted).toString('utf8'),
  };

  readonly screen: ElectronSeam['screen'] = {
    getAllDisplays: () => this.displays.map((workArea) => ({ workArea })),
  };

  /** An IPC event from `window`'s main frame at `url` (default: the page the window loaded). */
  eventFrom(window: FakeWindow, url?: string): IpcEventSeam {
    const frameUrl = url ?? window.webContents.url;
    return { sender: { id: window.webContents.id, getURL: () => frameUrl }, senderFrameUrl: frameUrl };
  }

  /** Calls the handler main registered for an invoke channel, as the preload's invoke would. */
  async invoke(channel: string, event: IpcEventSeam, arg: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) throw new Error(`no handler for ${channel}`);
    return handler(event, arg);
  }
}

/** Window options as createMainWindow would pass them, for tests that need a bare window. */
export function windowOptions(): WindowOptions {
  return {
    width: 1000,
    height: 700,
    minWidth: 1,
    minHeight: 1,
    show: false,
    title: '',
    backgroundColor: '',
    webPreferences: { preload: '', contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false, navigateOnDragDrop: false, spellcheck: true },
  };
}
