// The preload against the contract: exactly the DesktopApi, each call on its channel with a
// payload its schema accepts, and whatever main answers or sends parsed before the app sees it.
// The schemas themselves are checked as tables of good and bad values.
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP_CHANNELS,
  DESKTOP_GLOBAL,
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
import { createDesktopApi, type PreloadIpc } from '../../electron/preload/desktop-api.ts';

const API_KEYS = ['platform', 'session', 'setDocumentState', 'openFile', 'saveFile', 'openExternal', 'onMenuAction', 'onSessionChanged', 'onOpenWorkflow'] as const;
// Fails to compile when DesktopApi gains a key this list lacks.
const everyKeyListed: Exclude<keyof DesktopApi, (typeof API_KEYS)[number]> extends never ? true : false = true;

const TOKEN = 'a'.repeat(43);
const SESSION = { url: 'http://127.0.0.1:4123', token: TOKEN, workspace: '/home/ada/flows' };

type Listener = (event: unknown, ...args: unknown[]) => void;

/** An ipcRenderer that records what the preload sends and lets a test play main's part. */
function fakeIpc(answers: Record<string, unknown> = {}) {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const sent: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: PreloadIpc = {
    invoke(channel, ...args) {
      invoked.push({ channel, args });
      return Promise.resolve(answers[channel]);
    },
    send(channel, ...args) {
      sent.push({ channel, args });
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const emit = (channel: string, payload: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'main', ports: [] }, payload);
  };
  const count = (channel: string) => listeners.get(channel)?.size ?? 0;
  return { ipc, invoked, sent, emit, count };
}

function make(answers: Record<string, unknown> = {}) {
  const fake = fakeIpc(answers);
  const warnings: string[] = [];
  const api = createDesktopApi(fake.ipc, 'linux', (m) => warnings.push(m));
  return { ...fake, api, warnings };
}

describe('createDesktopApi: the shape', () => {
  it('has exactly the DesktopApi keys, and no generic send or invoke', () => {
    expect(everyKeyListed).toBe(true);
    const { api } = make();
    expect(Object.keys(api).sort()).toEqual([...API_KEYS].sort());
    for (const key of ['ipcRenderer', 'send', 'invoke', 'on']) expect(key in api).toBe(false);
  });

  it.each([
    ['darwin', 'darwin'],
    ['win32', 'win32'],
    ['linux', 'linux'],
    ['freebsd', 'other'],
  ])('reports platform %s as %s', (given, expected) => {
    expect(createDesktopApi(fakeIpc().ipc, given).platform).toBe(expected);
  });
});

describe('createDesktopApi: calls to main', () => {
  it('session() invokes the session channel and returns the parsed session', async () => {
    const { api, invoked } = make({ [DESKTOP_CHANNELS.session]: SESSION });
    await expect(api.session()).resolves.toEqual(SESSION);
    expect(invoked).toEqual([{ channel: DESKTOP_CHANNELS.session, args: [] }]);
  });

  it.each([
    ['a short token', { ...SESSION, token: 'abc' }],
    ['a non-loopback URL', { ...SESSION, url: 'http://evil.example:4123' }],
    ['an extra key', { ...SESSION, admin: true }],
    ['nothing', undefined],
  ])('session() refuses an answer with %s', async (_what, answer) => {
    const { api } = make({ [DESKTOP_CHANNELS.session]: answer });
    await expect(api.session()).rejects.toThrow(/weft:session .*not a session/);
  });

  it('setDocumentState sends the state on its channel; a bad one throws and sends nothing', () => {
    const { api, sent } = make();
    api.setDocumentState({ title: 'orders.weft.json', dirty: true, file: 'orders.weft.json' });
    expect(sent).toEqual([{ channel: DESKTOP_CHANNELS.documentState, args: [{ title: 'orders.weft.json', dirty: true, file: 'orders.weft.json' }] }]);
    expect(documentStateSchema.safeParse(sent[0]?.args[0]).success).toBe(true);
    expect(() => api.setDocumentState({ title: 'x'.repeat(301), dirty: false })).toThrow(/weft:document-state.*title/);
    expect(sent).toHaveLength(1);
  });

  it('openFile asks with its request and returns the parsed file, or null when cancelled', async () => {
    const answer = { name: 'a.weft.json', content: '{}' };
    const { api, invoked } = make({ [DESKTOP_CHANNELS.openFile]: answer });
    await expect(api.openFile({ purpose: 'import-workflow' })).resolves.toEqual(answer);
    expect(invoked[0]).toEqual({ channel: DESKTOP_CHANNELS.openFile, args: [{ purpose: 'import-workflow' }] });
    expect(openDialogRequestSchema.safeParse(invoked[0]?.args[0]).success).toBe(true);
    await expect(make({ [DESKTOP_CHANNELS.openFile]: null }).api.openFile({ purpose: 'import-workflow' })).resolves.toBeNull();
    await expect(make({ [DESKTOP_CHANNELS.openFile]: { name: '', content: '{}' } }).api.openFile({ purpose: 'import-workflow' })).rejects.toThrow(/weft:open-file.*name/);
  });

  it('saveFile asks with its request; a path as the suggested name is refused before main hears of it', async () => {
    const { api, invoked } = make({ [DESKTOP_CHANNELS.saveFile]: { saved: true, path: '/tmp/a.weft.json' } });
    await expect(api.saveFile({ suggestedName: 'a.weft.json', content: '{}' })).resolves.toEqual({ saved: true, path: '/tmp/a.weft.json' });
    expect(invoked[0]?.channel).toBe(DESKTOP_CHANNELS.saveFile);
    expect(saveDialogRequestSchema.safeParse(invoked[0]?.args[0]).success).toBe(true);
    await expect(api.saveFile({ suggestedName: '../../.bashrc', content: '' })).rejects.toThrow(/suggestedName: a file name, not a path/);
    expect(invoked).toHaveLength(1);
    await expect(make({ [DESKTOP_CHANNELS.saveFile]: { saved: 'yes' } }).api.saveFile({ suggestedName: 'a.json', content: '' })).rejects.toThrow(/weft:save-file/);
  });

  it('openExternal sends the link and returns only a boolean answer', async () => {
    const { api, invoked } = make({ [DESKTOP_CHANNELS.openExternal]: true });
    await expect(api.openExternal({ url: 'https://weft.studio/docs' })).resolves.toBe(true);
    expect(invoked[0]).toEqual({ channel: DESKTOP_CHANNELS.openExternal, args: [{ url: 'https://weft.studio/docs' }] });
    expect(externalLinkRequestSchema.safeParse(invoked[0]?.args[0]).success).toBe(true);
    await expect(make({ [DESKTOP_CHANNELS.openExternal]: 'true' }).api.openExternal({ url: 'https://x.y' })).rejects.toThrow(/not true or false/);
  });
});

describe('createDesktopApi: events from main', () => {
  it('delivers valid menu actions (payload only), drops and warns about invalid ones, and unsubscribes', () => {
    const { api, emit, warnings, count } = make();
    const got: unknown[][] = [];
    const off = api.onMenuAction((...args) => got.push(args));
    emit(DESKTOP_CHANNELS.menuAction, 'file.save');
    emit(DESKTOP_CHANNELS.menuAction, 'file.format-disk');
    emit(DESKTOP_CHANNELS.menuAction, { action: 'file.save' });
    expect(got).toEqual([['file.save']]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/dropped a weft:menu-action message/);
    off();
    off();
    expect(count(DESKTOP_CHANNELS.menuAction)).toBe(0);
    emit(DESKTOP_CHANNELS.menuAction, 'file.save');
    expect(got).toHaveLength(1);
  });

  it('delivers a valid changed session and drops one with a foreign URL', () => {
    const { api, emit, warnings } = make();
    const got: unknown[] = [];
    const off = api.onSessionChanged((s) => got.push(s));
    emit(DESKTOP_CHANNELS.sessionChanged, { ...SESSION, url: 'http://127.0.0.1:5000' });
    emit(DESKTOP_CHANNELS.sessionChanged, { ...SESSION, url: 'https://127.0.0.1.evil.example' });
    expect(got).toEqual([{ ...SESSION, url: 'http://127.0.0.1:5000' }]);
    expect(warnings).toHaveLength(1);
    off();
    emit(DESKTOP_CHANNELS.sessionChanged, SESSION);
    expect(got).toHaveLength(1);
  });

  it('delivers open-workflow requests and drops ones with extra keys', () => {
    const { api, emit, warnings } = make();
    const got: unknown[] = [];
    const off = api.onOpenWorkflow((r) => got.push(r));
    emit(DESKTOP_CHANNELS.openWorkflow, { file: 'orders.weft.json' });
    emit(DESKTOP_CHANNELS.openWorkflow, { file: 'orders.weft.json', run: 'rm -rf' });
    emit(DESKTOP_CHANNELS.openWorkflow, { file: '' });
    expect(got).toEqual([{ file: 'orders.weft.json' }]);
    expect(warnings).toHaveLength(2);
    off();
  });

  it('holds a file opened before the app subscribed (a launch by double-click) and hands it over once', () => {
    const { api, emit } = make();
    emit(DESKTOP_CHANNELS.openWorkflow, { file: 'launched.weft.json' });
    const first: unknown[] = [];
    const off = api.onOpenWorkflow((r) => first.push(r));
    expect(first).toEqual([{ file: 'launched.weft.json' }]);
    emit(DESKTOP_CHANNELS.openWorkflow, { file: 'next.weft.json' });
    expect(first).toEqual([{ file: 'launched.weft.json' }, { file: 'next.weft.json' }]);
    off();
    emit(DESKTOP_CHANNELS.openWorkflow, { file: 'later.weft.json' });
    expect(first).toHaveLength(2);
    // Held again while nobody listens, and given to the next subscriber only.
    const second: unknown[] = [];
    api.onOpenWorkflow((r) => second.push(r));
    expect(second).toEqual([{ file: 'later.weft.json' }]);
  });

  it('keeps two subscribers apart: unsubscribing one leaves the other', () => {
    const { api, emit } = make();
    const a: string[] = [];
    const b: string[] = [];
    const offA = api.onMenuAction((x) => a.push(x));
    api.onMenuAction((x) => b.push(x));
    offA();
    emit(DESKTOP_CHANNELS.menuAction, 'edit.undo');
    expect(a).toEqual([]);
    expect(b).toEqual(['edit.undo']);
  });
});

describe('the contract schemas', () => {
  const table: [string, { safeParse(v: unknown): { success: boolean } }, unknown, boolean][] = [
    ['session', desktopSessionSchema, SESSION, true],
    ['session with a 200-char token', desktopSessionSchema, { ...SESSION, token: 'A_-9'.repeat(50) }, true],
    ['session with a 42-char token', desktopSessionSchema, { ...SESSION, token: 'a'.repeat(42) }, false],
    ['session with a token with a dot', desktopSessionSchema, { ...SESSION, token: `${'a'.repeat(43)}.` }, false],
    ['session on localhost', desktopSessionSchema, { ...SESSION, url: 'http://localhost:4123' }, false],
    ['session on https', desktopSessionSchema, { ...SESSION, url: 'https://127.0.0.1:4123' }, false],
    ['session with a path in the URL', desktopSessionSchema, { ...SESSION, url: 'http://127.0.0.1:4123/x' }, false],
    ['session without a workspace', desktopSessionSchema, { url: SESSION.url, token: TOKEN }, false],
    ['session with an extra key', desktopSessionSchema, { ...SESSION, extra: 1 }, false],
    ['menu action file.save', menuActionSchema, 'file.save', true],
    ['menu action view.theme.dark', menuActionSchema, 'view.theme.dark', true],
    ['unknown menu action', menuActionSchema, 'file.delete-all', false],
    ['document state', documentStateSchema, { title: 'Runs', dirty: false }, true],
    ['document state with a file', documentStateSchema, { title: 'a.weft.json', dirty: true, file: 'a.weft.json' }, true],
    ['document state with a 301-char title', documentStateSchema, { title: 'x'.repeat(301), dirty: false }, false],
    ['document state with dirty "yes"', documentStateSchema, { title: 'Runs', dirty: 'yes' }, false],
    ['document state with an extra key', documentStateSchema, { title: 'Runs', dirty: false, url: 'x' }, false],
    ['open request', openDialogRequestSchema, { purpose: 'import-workflow' }, true],
    ['open request for another purpose', openDialogRequestSchema, { purpose: 'read-ssh-key' }, false],
    ['open answer null (cancelled)', openDialogAnswerSchema, null, true],
    ['open answer with an extra key', openDialogAnswerSchema, { name: 'a', content: '', path: '/etc' }, false],
    ['save request', saveDialogRequestSchema, { suggestedName: 'a.weft.json', content: '{}' }, true],
    ['save request with a path', saveDialogRequestSchema, { suggestedName: 'dir/a.weft.json', content: '{}' }, false],
    ['save request with a Windows path', saveDialogRequestSchema, { suggestedName: 'C:\\a.weft.json', content: '{}' }, false],
    ['save request with an empty name', saveDialogRequestSchema, { suggestedName: '', content: '{}' }, false],
    ['save request with an extra key', saveDialogRequestSchema, { suggestedName: 'a.json', content: '{}', path: '/etc/passwd' }, false],
    ['save answer', saveDialogAnswerSchema, { saved: false }, true],
    ['link request', externalLinkRequestSchema, { url: 'https://weft.studio' }, true],
    ['link request with a 4097-char URL', externalLinkRequestSchema, { url: `https://${'a'.repeat(4089)}` }, false],
    ['open workflow', openWorkflowRequestSchema, { file: 'orders.weft.json' }, true],
    ['open workflow with an empty file', openWorkflowRequestSchema, { file: '' }, false],
    ['open workflow with an extra key', openWorkflowRequestSchema, { file: 'a', cwd: '/' }, false],
  ];
  it.each(table)('%s', (_name, schema, value, ok) => {
    expect(schema.safeParse(value).success).toBe(ok);
  });
});

describe('preload.ts bundled as the sandbox runs it', () => {
  it('requires only electron and exposes exactly the API under DESKTOP_GLOBAL', async () => {
    const out = await build({ entryPoints: ['electron/preload/preload.ts'], bundle: true, write: false, platform: 'node', format: 'cjs', external: ['electron'], logLevel: 'silent' });
    const code = out.outputFiles[0]?.text ?? '';
    const required: string[] = [];
    const exposed: { name: string; api: Record<string, unknown> }[] = [];
    const fake = fakeIpc({ [DESKTOP_CHANNELS.session]: SESSION });
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: Record<string, unknown>) => exposed.push({ name, api }) },
      ipcRenderer: fake.ipc,
    };
    const require = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`the sandboxed preload cannot require ${name}`);
      return electron;
    };
    const module = { exports: {} };
    runInNewContext(code, { require, module, exports: module.exports, process: { platform: 'darwin' }, console });
    expect(required).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    expect(exposed[0]?.name).toBe(DESKTOP_GLOBAL);
    const api = exposed[0]?.api ?? {};
    expect(Object.keys(api).sort()).toEqual([...API_KEYS].sort());
    expect(api['platform']).toBe('darwin');
    const session = api['session'];
    expect(typeof session).toBe('function');
    if (typeof session === 'function') await expect(session()).resolves.toEqual(SESSION);
  });
});
