// The preload's whole logic, kept apart from the electron module so it is tested without one:
// one function per contract entry, each checking what crosses the boundary. Answers and events
// from main are parsed here too, so the app never sees a value its contract does not allow, and
// the page gets no generic send or invoke it could point at another channel.
import type { z } from 'zod';
import {
  DESKTOP_CHANNELS,
  desktopSessionSchema,
  documentStateSchema,
  externalLinkRequestSchema,
  menuActionSchema,
  openDialogAnswerSchema,
  openDialogRequestSchema,
  openWorkflowRequestSchema,
  saveDialogAnswerSchema,
  saveDialogRequestSchema,
  type DesktopApi,
} from '../../shared/desktop/preload-contract.ts';

type IpcListener = (event: unknown, ...args: unknown[]) => void;

/** The part of Electron's ipcRenderer the preload uses (ipcRenderer itself fits it). */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: IpcListener): unknown;
  removeListener(channel: string, listener: IpcListener): unknown;
}

export type Warn = (message: string) => void;

const PLATFORMS = ['darwin', 'win32', 'linux'] as const;

function platformOf(platform: string): DesktopApi['platform'] {
  return PLATFORMS.find((p) => p === platform) ?? 'other';
}

function problem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'the value' : issue.path.join('.');
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

/** `value` read against `schema`, or an Error that names the channel, the place and the rule. */
function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(`${what} (${problem(parsed.error)})`);
}

/**
 * The object the preload exposes as `window.weftDesktop`.
 * @example contextBridge.exposeInMainWorld(DESKTOP_GLOBAL, createDesktopApi(ipcRenderer, process.platform));
 */
export function createDesktopApi(ipc: PreloadIpc, platform: string, warn: Warn = (m) => console.warn(m)): DesktopApi {
  const request = async <Req extends z.ZodType, Ans extends z.ZodType>(channel: string, requestSchema: Req, answerSchema: Ans, value: unknown): Promise<z.infer<Ans>> => {
    const sent = parseOrThrow(requestSchema, value, `refused to send ${channel}: the request does not match the desktop contract; fix the caller`);
    const answer = await ipc.invoke(channel, sent);
    return parseOrThrow(answerSchema, answer, `the desktop shell's answer on ${channel} does not match the contract (is the preload older or newer than main?)`);
  };
  const subscribe = <S extends z.ZodType>(channel: string, schema: S, listener: (value: z.infer<S>) => void): (() => void) => {
    // The IPC event (with its sender) stays here: the page gets the parsed payload only.
    const wrapped: IpcListener = (_event, payload) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) listener(parsed.data);
      else warn(`weftDesktop: dropped a ${channel} message that does not match the contract (${problem(parsed.error)})`);
    };
    ipc.on(channel, wrapped);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipc.removeListener(channel, wrapped);
    };
  };
  // A file opened at launch (double-click, file association) reaches the page as soon as it has
  // loaded, before the app has rendered and subscribed: such requests are held here, from the
  // preload's start, and handed to the first listener that subscribes.
  const held: z.infer<typeof openWorkflowRequestSchema>[] = [];
  const openListeners = new Set<(value: z.infer<typeof openWorkflowRequestSchema>) => void>();
  ipc.on(DESKTOP_CHANNELS.openWorkflow, (_event, payload) => {
    const parsed = openWorkflowRequestSchema.safeParse(payload);
    if (!parsed.success) {
      warn(`weftDesktop: dropped a ${DESKTOP_CHANNELS.openWorkflow} message that does not match the contract (${problem(parsed.error)})`);
      return;
    }
    if (openListeners.size === 0) held.push(parsed.data);
    for (const listener of openListeners) listener(parsed.data);
  });
  return {
    platform: platformOf(platform),
    async session() {
      const answer = await ipc.invoke(DESKTOP_CHANNELS.session);
      return parseOrThrow(desktopSessionSchema, answer, `the desktop shell's answer on ${DESKTOP_CHANNELS.session} is not a session (is the preload older or newer than main?)`);
    },
    setDocumentState(state) {
      ipc.send(DESKTOP_CHANNELS.documentState, parseOrThrow(documentStateSchema, state, `refused to send ${DESKTOP_CHANNELS.documentState}: the state does not match the desktop contract; fix the caller`));
    },
    openFile: (req) => request(DESKTOP_CHANNELS.openFile, openDialogRequestSchema, openDialogAnswerSchema, req),
    saveFile: (req) => request(DESKTOP_CHANNELS.saveFile, saveDialogRequestSchema, saveDialogAnswerSchema, req),
    async openExternal(req) {
      const sent = parseOrThrow(externalLinkRequestSchema, req, `refused to send ${DESKTOP_CHANNELS.openExternal}: the request does not match the desktop contract; fix the caller`);
      const answer = await ipc.invoke(DESKTOP_CHANNELS.openExternal, sent);
      if (typeof answer !== 'boolean') throw new Error(`the desktop shell's answer on ${DESKTOP_CHANNELS.openExternal} is not true or false (is the preload older or newer than main?)`);
      return answer;
    },
    onMenuAction: (listener) => subscribe(DESKTOP_CHANNELS.menuAction, menuActionSchema, listener),
    onSessionChanged: (listener) => subscribe(DESKTOP_CHANNELS.sessionChanged, desktopSessionSchema, listener),
    onOpenWorkflow(listener) {
      openListeners.add(listener);
      for (const request of held.splice(0)) listener(request);
      return () => void openListeners.delete(listener);
    },
  };
}
