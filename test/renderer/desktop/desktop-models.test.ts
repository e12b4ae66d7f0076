// The desktop side's pure parts: the window's document state per page (checked against the contract),
// finding the preload's API, and finding the workflow a file the shell opens belongs to.
import { describe, expect, it } from 'vitest';
import { documentStateSchema } from '../../../shared/desktop/preload-contract.ts';
import { documentStateFor } from '../../../renderer/desktop/document-state.ts';
import { isDesktopApi, findDesktopApi } from '../../../renderer/core/desktop-bridge.ts';
import { workflowForFile } from '../../../renderer/desktop/workflow-for-file.ts';
import type { Route } from '../../../renderer/core/route.ts';

const none = { file: null, dirty: false };

describe('documentStateFor', () => {
  it.each<[Route, { file: string | null; dirty: boolean }, unknown]>([
    [{ page: 'workflow', id: 'orders' }, { file: 'orders.weft.json', dirty: false }, { title: 'orders.weft.json', dirty: false, file: 'orders.weft.json' }],
    [{ page: 'workflow', id: 'orders' }, { file: 'flows/orders.weft.json', dirty: true }, { title: 'orders.weft.json', dirty: true, file: 'flows/orders.weft.json' }],
    [{ page: 'workflow', id: 'orders' }, none, { title: 'orders', dirty: false }],
    [{ page: 'run', id: 'r-01J9' }, none, { title: 'Run r-01J9', dirty: false }],
    [{ page: 'workflows' }, none, { title: 'Workflows', dirty: false }],
    [{ page: 'runs' }, none, { title: 'Runs', dirty: false }],
    [{ page: 'runs', workflow: 'orders' }, none, { title: 'Runs of orders', dirty: false }],
    [{ page: 'tasks' }, none, { title: 'Tasks', dirty: false }],
    [{ page: 'insights', id: 'orders' }, none, { title: 'Insights of orders', dirty: false }],
    [{ page: 'compare', a: 'r1', b: 'r2' }, none, { title: 'Compare runs', dirty: false }],
  ])('%o with %o', (route, editor, expected) => {
    const state = documentStateFor(route, editor);
    expect(state).toEqual(expected);
    expect(documentStateSchema.safeParse(state).success).toBe(true);
  });

  it('stays within the contract for very long names: the title is cut, an over-long file left out', () => {
    const long = `${'a'.repeat(1200)}.weft.json`;
    const state = documentStateFor({ page: 'workflow', id: 'a' }, { file: long, dirty: true });
    expect(documentStateSchema.safeParse(state).success).toBe(true);
    expect(state.title).toHaveLength(300);
    expect(state.title.endsWith('…')).toBe(true);
    expect(state.file).toBeUndefined();
    expect(documentStateSchema.safeParse(documentStateFor({ page: 'run', id: 'r'.repeat(400) }, none)).success).toBe(true);
  });
});

describe('findDesktopApi', () => {
  const fn = () => undefined;
  const api = { platform: 'linux', session: fn, setDocumentState: fn, openFile: fn, saveFile: fn, openExternal: fn, onMenuAction: fn, onSessionChanged: fn, onOpenWorkflow: fn };
  it('finds the API the preload exposed, and nothing in a browser or with a partial object', () => {
    expect(findDesktopApi({ weftDesktop: api })).toBe(api);
    expect(findDesktopApi({})).toBeNull();
    expect(findDesktopApi({ weftDesktop: { ...api, session: 'x' } })).toBeNull();
    expect(isDesktopApi(null)).toBe(false);
  });
});

describe('workflowForFile', () => {
  const list = [
    { id: 'orders', file: 'orders.weft.json', version: 1, name: 'Orders', stepCount: 3, errors: 0, warnings: 0 },
    { id: null, file: 'broken.weft.json', version: null, name: null, stepCount: 0, errors: 1, warnings: 0 },
    { id: 'nested', file: 'team/nested.weft.json', version: 1, name: 'Nested', stepCount: 2, errors: 0, warnings: 0 },
  ];
  it('finds the workflow by its file, or says why not', () => {
    expect(workflowForFile(list, 'orders.weft.json')).toEqual({ id: 'orders' });
    expect(workflowForFile(list, './orders.weft.json')).toEqual({ id: 'orders' });
    expect(workflowForFile(list, 'team\\nested.weft.json')).toEqual({ id: 'nested' });
    expect(workflowForFile(list, 'broken.weft.json')).toEqual({ problem: expect.stringMatching(/not a readable workflow/) });
    expect(workflowForFile(list, 'elsewhere.weft.json')).toEqual({ problem: expect.stringMatching(/not among this workspace/) });
  });
});
