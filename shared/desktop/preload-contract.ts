// The contract between the desktop shell's main process, its preload and the app: the only
// channel through which the renderer learns the engine's endpoint and token, hears the native
// menus, and asks for native dialogs. Everything that crosses it is parsed against these schemas
// on the receiving side (main parses what the renderer sends, the app parses what main sends), so
// a compromised or buggy page cannot hand main anything else.
import { z } from 'zod';

/** The name the preload exposes on `window` (contextBridge.exposeInMainWorld). */
export const DESKTOP_GLOBAL = 'weftDesktop';

/** IPC channel names; `invoke` ones answer, `event` ones flow main -> renderer. */
export const DESKTOP_CHANNELS = {
  /** invoke () -> DesktopSession */
  session: 'weft:session',
  /** send (DocumentState): the title and unsaved state, for the window title and quit prompt */
  documentState: 'weft:document-state',
  /** invoke (OpenDialogRequest) -> OpenDialogAnswer */
  openFile: 'weft:open-file',
  /** invoke (SaveDialogRequest) -> SaveDialogAnswer */
  saveFile: 'weft:save-file',
  /** invoke (ExternalLinkRequest) -> boolean (opened) */
  openExternal: 'weft:open-external',
  /** event main -> renderer (MenuAction) */
  menuAction: 'weft:menu-action',
  /** event main -> renderer (DesktopSession): the engine came back on another endpoint */
  sessionChanged: 'weft:session-changed',
  /** event main -> renderer (OpenWorkflowRequest): open a .weft.json (file association, argv) */
  openWorkflow: 'weft:open-workflow',
} as const;

const TOKEN = /^[A-Za-z0-9_-]{43,200}$/;

export const desktopSessionSchema = z
  .object({
    /** The engine's origin, always loopback: http://127.0.0.1:PORT */
    url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/, 'the engine listens on http://127.0.0.1:PORT only'),
    token: z.string().regex(TOKEN, 'a token is 43 to 200 characters of A-Z a-z 0-9 _ -'),
    /** The workspace folder the engine serves. */
    workspace: z.string().min(1),
  })
  .strict();
export type DesktopSession = z.infer<typeof desktopSessionSchema>;

/** Every action a native menu item can send to the app (the Edit roles cut/copy/paste are native). */
export const MENU_ACTIONS = [
  'file.new',
  'file.save',
  'file.import',
  'file.export',
  'file.reveal',
  'edit.undo',
  'edit.redo',
  'view.theme.light',
  'view.theme.dark',
  'view.theme.system',
  'view.panel.problems',
  'view.panel.history',
  'view.panel.handoffs',
  'view.panel.inspector',
  'run.start',
  'run.pause',
  'run.resume',
  'run.cancel',
  'help.shortcuts',
] as const;
export const menuActionSchema = z.enum(MENU_ACTIONS);
export type MenuAction = z.infer<typeof menuActionSchema>;

export const documentStateSchema = z
  .object({
    /** What is open, e.g. "order-payment.weft.json" or "Runs"; the window title is built from it. */
    title: z.string().max(300),
    /** Unsaved changes: the title shows them, macOS shows the document-edited dot, quit asks. */
    dirty: z.boolean(),
    /** The open workflow's file name within the workspace, for "reveal in file manager". */
    file: z.string().max(1000).optional(),
    /** The theme chosen in the app, so the View menu marks the same one. */
    theme: z.enum(['light', 'dark', 'system']).optional(),
  })
  .strict();
export type DocumentState = z.infer<typeof documentStateSchema>;

export const openDialogRequestSchema = z.object({ purpose: z.enum(['import-workflow']) }).strict();
export type OpenDialogRequest = z.infer<typeof openDialogRequestSchema>;
/** null when the user cancelled. Content is the file's text, at most 16 MiB. */
export const openDialogAnswerSchema = z.object({ name: z.string().min(1), content: z.string().max(16 * 1024 * 1024) }).strict().nullable();
export type OpenDialogAnswer = z.infer<typeof openDialogAnswerSchema>;

export const saveDialogRequestSchema = z
  .object({
    suggestedName: z.string().min(1).max(255).regex(/^[^/\\]+$/, 'a file name, not a path'),
    content: z.string().max(16 * 1024 * 1024),
  })
  .strict();
export type SaveDialogRequest = z.infer<typeof saveDialogRequestSchema>;
export const saveDialogAnswerSchema = z.object({ saved: z.boolean(), path: z.string().optional() }).strict();
export type SaveDialogAnswer = z.infer<typeof saveDialogAnswerSchema>;

export const externalLinkRequestSchema = z.object({ url: z.string().max(4096) }).strict();
export type ExternalLinkRequest = z.infer<typeof externalLinkRequestSchema>;

export const openWorkflowRequestSchema = z.object({ file: z.string().min(1).max(1000) }).strict();
export type OpenWorkflowRequest = z.infer<typeof openWorkflowRequestSchema>;

/** What `window.weftDesktop` offers the app; absent in a browser (weft serve). */
export interface DesktopApi {
  readonly platform: 'darwin' | 'win32' | 'linux' | 'other';
  session(): Promise<DesktopSession>;
  setDocumentState(state: DocumentState): void;
  openFile(request: OpenDialogRequest): Promise<OpenDialogAnswer>;
  saveFile(request: SaveDialogRequest): Promise<SaveDialogAnswer>;
  openExternal(request: ExternalLinkRequest): Promise<boolean>;
  /** Each returns an unsubscribe function. */
  onMenuAction(listener: (action: MenuAction) => void): () => void;
  onSessionChanged(listener: (session: DesktopSession) => void): () => void;
  onOpenWorkflow(listener: (request: OpenWorkflowRequest) => void): () => void;
}
