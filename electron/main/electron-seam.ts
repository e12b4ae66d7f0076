// The few Electron APIs the main process uses, as an interface. Every module of electron/main/
// takes this seam instead of importing 'electron', so its logic is unit-tested against a fake that
// records calls (test/electron/fake-electron.ts); electron-adapter.ts is the one file that maps the
// real module onto it. Shapes mirror Electron's own, narrowed to what we touch.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PreventableEvent {
  preventDefault(): void;
}

export type PermissionRequestHandler = (permission: string, callback: (granted: boolean) => void) => void;
export type PermissionCheckHandler = (permission: string) => boolean;

export type ResponseHeaders = Record<string, string | string[]>;
export interface HeadersReceivedDetails {
  url: string;
  responseHeaders?: ResponseHeaders;
}
export interface BeforeRequestDetails {
  url: string;
}

export interface SessionSeam {
  setPermissionRequestHandler(handler: PermissionRequestHandler): void;
  setPermissionCheckHandler(handler: PermissionCheckHandler): void;
  onHeadersReceived(listener: (details: HeadersReceivedDetails, callback: (response: { responseHeaders?: ResponseHeaders }) => void) => void): void;
  onBeforeRequest(listener: (details: BeforeRequestDetails, callback: (response: { cancel: boolean }) => void) => void): void;
}

export interface WebContentsSeam {
  readonly id: number;
  getURL(): string;
  send(channel: string, payload: unknown): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  reload(): void;
  toggleDevTools(): void;
}

export interface WebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  navigateOnDragDrop: false;
  spellcheck: boolean;
}

export interface WindowOptions {
  width: number;
  height: number;
  x?: number;
  y?: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  webPreferences: WebPreferences;
}

export interface WindowSeam {
  readonly webContents: WebContentsSeam;
  readonly session: SessionSeam;
  loadURL(url: string): Promise<void>;
  setTitle(title: string): void;
  setDocumentEdited(edited: boolean): void;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  maximize(): void;
  restore(): void;
  show(): void;
  focus(): void;
  close(): void;
  on(event: 'close', listener: (event: PreventableEvent) => void): void;
  on(event: 'closed' | 'resize' | 'move' | 'maximize' | 'unmaximize' | 'ready-to-show', listener: () => void): void;
}

export interface IpcEventSeam {
  readonly sender: { readonly id: number; getURL(): string };
  /** The URL of the frame that sent the message; a sub-frame never speaks for the app. */
  readonly senderFrameUrl: string | undefined;
}

export interface MessageBoxOptions {
  type: 'none' | 'info' | 'error' | 'question' | 'warning';
  buttons: string[];
  defaultId: number;
  cancelId: number;
  message: string;
  detail?: string;
}

export type MenuRole =
  | 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'selectAll' | 'resetZoom' | 'zoomIn' | 'zoomOut' | 'togglefullscreen'
  | 'toggleDevTools' | 'minimize' | 'close' | 'about' | 'services' | 'hide' | 'hideOthers' | 'unhide' | 'quit' | 'front' | 'windowMenu';

/** A menu item as Electron's Menu.buildFromTemplate takes it (the subset we build). */
export interface MenuItemSpec {
  id?: string;
  label?: string;
  role?: MenuRole;
  type?: 'separator' | 'submenu' | 'normal' | 'radio';
  accelerator?: string;
  /** false: the accelerator is only shown; the app handles the key (a bare letter must still type in fields). */
  registerAccelerator?: boolean;
  enabled?: boolean;
  checked?: boolean;
  submenu?: MenuItemSpec[];
  click?: () => void;
}

export interface ElectronSeam {
  readonly platform: NodeJS.Platform;
  readonly app: {
    readonly isPackaged: boolean;
    getName(): string;
    getVersion(): string;
    getAppPath(): string;
    getPath(name: 'userData' | 'home' | 'documents'): string;
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    onSecondInstance(listener: (argv: string[], cwd: string) => void): void;
    onOpenFile(listener: (event: PreventableEvent, path: string) => void): void;
    on(event: 'before-quit' | 'will-quit', listener: (event: PreventableEvent) => void): void;
    onWindowAllClosed(listener: () => void): void;
    quit(): void;
    exit(code: number): void;
    addRecentDocument(path: string): void;
  };
  createWindow(options: WindowOptions): WindowSeam;
  readonly ipcMain: {
    handle(channel: string, handler: (event: IpcEventSeam, arg: unknown) => unknown): void;
    on(channel: string, listener: (event: IpcEventSeam, arg: unknown) => void): void;
  };
  readonly dialog: {
    showOpenDialog(window: WindowSeam, options: { title: string; properties: Array<'openFile' | 'openDirectory' | 'createDirectory'>; filters?: Array<{ name: string; extensions: string[] }> }): Promise<{ canceled: boolean; filePaths: string[] }>;
    showSaveDialog(window: WindowSeam, options: { title: string; defaultPath: string; filters: Array<{ name: string; extensions: string[] }> }): Promise<{ canceled: boolean; filePath?: string }>;
    showMessageBox(window: WindowSeam, options: MessageBoxOptions): Promise<{ response: number }>;
    showErrorBox(title: string, content: string): void;
  };
  readonly shell: {
    openExternal(url: string): Promise<void>;
    showItemInFolder(path: string): void;
  };
  setApplicationMenu(template: MenuItemSpec[]): void;
  readonly safeStorage: {
    isEncryptionAvailable(): boolean;
    encryptString(plain: string): Buffer;
    decryptString(encrypted: Buffer): string;
  };
  readonly screen: {
    getAllDisplays(): Array<{ workArea: Rect }>;
  };
}
