import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflowFilesInArgv, workspaceInArgv } from '../../electron/main/launch-args.ts';
import { openTarget } from '../../electron/main/open-target.ts';
import { openWorkflowFile } from '../../electron/main/open-workflow.ts';
import { claimSingleInstance } from '../../electron/main/single-instance.ts';
import { FakeElectron, FakeEvent, windowOptions } from './fake-electron.ts';

describe('workflowFilesInArgv', () => {
  it.each<[string[], string[]]>([
    [['/opt/weft/weft-studio', 'flow.weft.json'], ['/home/u/proj/flow.weft.json']],
    [['/opt/weft/weft-studio', '../other/a.weft.json', '/abs/b.WEFT.JSON'], ['/home/u/other/a.weft.json', '/abs/b.WEFT.JSON']],
    [['electron', '.', '--inspect=9229', '--allow-file-access-from-files', 'x.weft.json'], ['/home/u/proj/x.weft.json']],
    [['weft-studio', 'notes.txt', 'flow.json', 'flow.weft.json.bak', 'sub/'], []],
    [['weft-studio', '--', '-dash.weft.json'], ['/home/u/proj/-dash.weft.json']],
    [['weft-studio', '-dash.weft.json'], []],
    [['weft-studio', 'a.weft.json', './a.weft.json'], ['/home/u/proj/a.weft.json']],
    [['weft-studio', 'file:///tmp/with%20space.weft.json'], ['/tmp/with space.weft.json']],
    [['/home/u/proj/flow.weft.json'], []],
  ])('%j', (argv, files) => {
    expect(workflowFilesInArgv(argv, '/home/u/proj')).toEqual(files);
  });
});

describe('workspaceInArgv', () => {
  it.each([
    [['electron', '.', '--workspace', 'examples'], '/repo/examples'],
    [['electron', '.', '--workspace=/abs/ws'], '/abs/ws'],
    [['electron', '.', '--workspace', 'a', '--workspace', 'b'], '/repo/b'],
    [['electron', '.', '--', '--workspace', 'x'], undefined],
    [['electron', '.', '--workspace'], undefined],
    [['electron', '.', '--workspace='], undefined],
    [['electron', '.', 'flow.weft.json'], undefined],
  ])('%j -> %s', (argv, expected) => {
    expect(workspaceInArgv(argv, '/repo')).toBe(expected);
  });
});

describe('openTarget', () => {
  it('a file in the workspace opens there, named relative to it', () => {
    expect(openTarget('/ws/flow.weft.json', '/ws')).toEqual({ kind: 'in-workspace', workspace: '/ws', file: 'flow.weft.json' });
    expect(openTarget('/ws/sub/deep/flow.weft.json', '/ws/')).toEqual({ kind: 'in-workspace', workspace: '/ws', file: 'sub/deep/flow.weft.json' });
  });
  it("a file outside switches the workspace to the file's folder", () => {
    expect(openTarget('/elsewhere/flow.weft.json', '/ws')).toEqual({ kind: 'switch-workspace', workspace: '/elsewhere', file: 'flow.weft.json' });
    expect(openTarget('/ws-other/flow.weft.json', '/ws')).toEqual({ kind: 'switch-workspace', workspace: '/ws-other', file: 'flow.weft.json' });
    expect(openTarget('/flow.weft.json', '/ws')).toMatchObject({ kind: 'switch-workspace', file: 'flow.weft.json' });
    expect(openTarget('/a/flow.weft.json', undefined)).toEqual({ kind: 'switch-workspace', workspace: '/a', file: 'flow.weft.json' });
  });
});

describe('single instance', () => {
  it('a second instance gets no lock and is told to quit', () => {
    expect(claimSingleInstance(new FakeElectron({ singleInstanceLock: false }), [], '/', () => undefined)).toBeUndefined();
  });

  it("a second launch focuses the first window and opens its files, relative to the second launch's cwd", () => {
    const electron = new FakeElectron();
    const window = electron.createWindow(windowOptions());
    window.minimized = true;
    const instance = claimSingleInstance(electron, ['weft-studio', 'first.weft.json'], '/first', () => window);
    const opened: string[] = [];
    instance?.deliverTo((f) => opened.push(f));
    expect(opened).toEqual(['/first/first.weft.json']);
    electron.appEvents.emit('second-instance', {}, ['weft-studio', '--flag', 'b.weft.json', 'readme.md'], '/second/cwd');
    expect(opened).toEqual(['/first/first.weft.json', '/second/cwd/b.weft.json']);
    expect(window.minimized).toBe(false);
    expect(window.focused).toBe(1);
    expect(window.shown).toBe(true);
  });

  it("macOS 'open-file' events open the file, queued until the window can take them", () => {
    const electron = new FakeElectron({ platform: 'darwin' });
    const instance = claimSingleInstance(electron, ['Weft Studio'], '/', () => undefined);
    const event = new FakeEvent();
    electron.appEvents.emit('open-file', event, '/Users/u/flow.weft.json');
    electron.appEvents.emit('open-file', new FakeEvent(), '/Users/u/picture.png');
    expect(event.prevented).toBe(true);
    const opened: string[] = [];
    instance?.deliverTo((f) => opened.push(f));
    expect(opened).toEqual(['/Users/u/flow.weft.json']);
    electron.appEvents.emit('open-file', new FakeEvent(), '/Users/u/later.weft.json');
    expect(opened).toEqual(['/Users/u/flow.weft.json', '/Users/u/later.weft.json']);
  });
});

describe('openWorkflowFile', () => {
  const setup = (): { ws: string; outside: string } => {
    const root = mkdtempSync(join(tmpdir(), 'weft-open-'));
    mkdirSync(join(root, 'ws', 'sub'), { recursive: true });
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'ws', 'sub', 'a.weft.json'), '{}');
    writeFileSync(join(root, 'outside', 'b.weft.json'), '{}');
    return { ws: join(root, 'ws'), outside: join(root, 'outside') };
  };

  it('sends openWorkflow with the name inside the workspace', async () => {
    const { ws } = setup();
    const sent: unknown[] = [];
    const switched: string[] = [];
    await openWorkflowFile(join(ws, 'sub', 'a.weft.json'), { workspace: () => ws, switchWorkspace: async (f) => (switched.push(f), true), send: (r) => sent.push(r), reportError: () => undefined });
    expect(sent).toEqual([{ file: 'sub/a.weft.json' }]);
    expect(switched).toEqual([]);
  });

  it('switches the workspace for a file outside it, then opens it', async () => {
    const { ws, outside } = setup();
    const log: string[] = [];
    await openWorkflowFile(join(outside, 'b.weft.json'), { workspace: () => ws, switchWorkspace: async (f) => (log.push(`switch ${f}`), true), send: (r) => log.push(`open ${r.file}`), reportError: () => undefined });
    expect(log).toEqual([`switch ${outside}`, 'open b.weft.json']);
  });

  it('opens nothing when the switch was cancelled', async () => {
    const { ws, outside } = setup();
    const sent: unknown[] = [];
    await openWorkflowFile(join(outside, 'b.weft.json'), { workspace: () => ws, switchWorkspace: async () => false, send: (r) => sent.push(r), reportError: () => undefined });
    expect(sent).toEqual([]);
  });

  it('reports a file that does not exist, in one line', async () => {
    const { ws } = setup();
    const errors: string[] = [];
    await openWorkflowFile(join(ws, 'gone.weft.json'), { workspace: () => ws, switchWorkspace: async () => true, send: () => undefined, reportError: (m) => errors.push(m) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/gone\.weft\.json was not opened: there is no such file/);
    expect(errors[0]).not.toContain('\n');
  });
});
