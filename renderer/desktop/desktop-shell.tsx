// The app's desktop side, mounted only when the shell's preload is there: it tells the shell what
// the window shows (title, unsaved changes), carries out the native menus' actions through the
// pages' own handlers, and opens the workflow files the shell is asked to open.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DesktopApi } from '../../shared/desktop/preload-contract.ts';
import { useRoute } from '../core/route-store.ts';
import { useTheme } from '../core/theme-store.ts';
import { isDirty, useEditor } from '../editor/editor-store.ts';
import { CheatSheet } from '../editor/cheat-sheet.tsx';
import { NewWorkflowDialog } from '../files/new-workflow-dialog.tsx';
import { importAndOpen } from '../files/file-transfer.ts';
import { documentStateFor } from './document-state.ts';
import { dispatchMenuAction, type MenuPorts } from './menu-dispatch.ts';
import { useMenuHandlers } from '../core/menu-handlers.ts';
import { openWorkflowFile } from './open-workflow.ts';
import './desktop.css';

const NOTE_MS = 5000;
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

function isTextField(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !NOT_TEXT.has(element.type);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function DesktopShell({ api }: { api: DesktopApi }) {
  const route = useRoute((s) => s.route);
  const openId = useEditor((s) => s.source?.workflowId ?? null);
  const file = useEditor((s) => s.source?.file ?? null);
  const dirty = useEditor(isDirty);
  const [creating, setCreating] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  // Only the document of the page shown counts (the editor store outlives a page change briefly).
  const shown = route.page === 'workflow' && openId === route.id;
  const theme = useTheme((s) => s.choice);
  const state = { ...documentStateFor(route, { file: shown ? file : null, dirty: shown && dirty }), theme };
  const latest = useRef(state);
  latest.current = state;
  const stateKey = JSON.stringify(state);
  // Sent when it changes, not at every render.
  useEffect(() => {
    try {
      api.setDocumentState(latest.current);
    } catch (error) {
      console.warn(`weftDesktop: the window title was not updated: ${messageOf(error)}`);
    }
  }, [api, stateKey]);

  const ports = useMemo<MenuPorts>(
    () => ({
      setTheme: (choice) => useTheme.getState().set(choice),
      // The field's own history: the browser's for inputs, CodeMirror's (it listens for this) for its editors.
      fieldCommand: (command) => void document.execCommand(command),
      note: setNote,
    }),
    [],
  );
  useEffect(() => api.onMenuAction((action) => dispatchMenuAction(action, { textField: isTextField(document.activeElement) }, ports)), [api, ports]);
  useEffect(
    () =>
      api.onOpenWorkflow(({ file: requested }) => {
        openWorkflowFile(requested).then(
          (problem) => problem !== null && setNote(problem),
          (error: unknown) => setNote(`Could not open ${requested}: ${messageOf(error)}`),
        );
      }),
    [api],
  );
  useEffect(() => {
    if (note === null) return;
    const timer = setTimeout(() => setNote(null), NOTE_MS);
    return () => clearTimeout(timer);
  }, [note]);

  // Where no page has its own, New, Import and the shortcuts work from anywhere.
  useMenuHandlers(
    {
      'file.new': () => setCreating(true),
      'file.import': () => void importAndOpen().catch((error: unknown) => setNote(`Could not import: ${messageOf(error)}`)),
      'help.shortcuts': () => setShortcuts(true),
    },
    { fallback: true },
  );

  return (
    <>
      {note !== null ? (
        <div className="desktop-note" role="status" data-testid="desktop-note">
          {note}
        </div>
      ) : null}
      {creating ? <NewWorkflowDialog onClose={() => setCreating(false)} /> : null}
      {shortcuts ? <CheatSheet onClose={() => setShortcuts(false)} /> : null}
    </>
  );
}
