// The editor's File menu: new, rename, export, import and delete of workflow files.
import { useEffect, useRef, useState } from 'react';
import { ChevronDown, Download, FilePlus2, PencilLine, Trash2, Upload } from 'lucide-react';
import { WORKFLOW_ID_PATTERN } from '../../shared/definition/names.ts';
import { requireFiles } from '../core/session-store.ts';
import { useRoute } from '../core/route-store.ts';
import { useWorkflows } from '../core/workflows-store.ts';
import { exportWorkflow, importAndOpen } from '../files/file-transfer.ts';
import { useMenuHandlers } from '../core/menu-handlers.ts';
import { NewWorkflowDialog } from '../files/new-workflow-dialog.tsx';
import { isDirty, useEditor } from './editor-store.ts';

interface Props {
  onSave(): Promise<void>;
  onMessage(kind: 'ok' | 'error', text: string): void;
}

export function FileMenu({ onSave, onMessage }: Props) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (anchor.current !== null && !anchor.current.contains(e.target instanceof Node ? e.target : null)) setOpen(false);
    };
    window.addEventListener('mousedown', close);
    return () => window.removeEventListener('mousedown', close);
  }, [open]);
  const act = (fn: () => Promise<void> | void) => () => {
    setOpen(false);
    Promise.resolve(fn()).catch((error: unknown) => onMessage('error', error instanceof Error ? error.message : String(error)));
  };
  const id = () => useEditor.getState().source?.workflowId ?? '';
  const rename = async () => {
    const to = window.prompt('New id of this workflow (also its file name):', useEditor.getState().doc?.id ?? '');
    if (to === null || to === id()) return;
    if (!WORKFLOW_ID_PATTERN.test(to)) throw new Error(`"${to}" is not a workflow id: use lower-case letters, digits and -, starting with a letter or digit`);
    useEditor.getState().edit((d) => ({ ...d, id: to }));
    await onSave();
  };
  const doExport = async () => {
    if (isDirty(useEditor.getState())) onMessage('error', 'Exported the file as last saved: save first to export your changes');
    await exportWorkflow(id());
  };
  const doImport = async () => {
    const result = await importAndOpen((message) => window.confirm(message));
    if (result !== null) onMessage('ok', `Imported ${result.summary.file}`);
  };
  const remove = async () => {
    if (!window.confirm(`Delete ${useEditor.getState().source?.file ?? id()}? The file is removed; versions that ran stay in the store.`)) return;
    await requireFiles().remove(id());
    await useWorkflows.getState().refresh();
    useRoute.getState().go({ page: 'workflows' });
  };
  // The desktop menu's File items do what this menu's items do.
  useMenuHandlers({ 'file.new': () => setCreating(true), 'file.import': act(doImport), 'file.export': act(doExport) });
  return (
    <div className="menu-anchor" ref={anchor}>
      <button type="button" className="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="file-menu">
        File <ChevronDown size={13} aria-hidden="true" />
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label="file">
          <button type="button" role="menuitem" onClick={act(() => setCreating(true))} data-testid="menu-new">
            <FilePlus2 size={14} aria-hidden="true" /> New workflow…
          </button>
          <button type="button" role="menuitem" onClick={act(rename)} data-testid="menu-rename">
            <PencilLine size={14} aria-hidden="true" /> Rename…
          </button>
          <hr />
          <button type="button" role="menuitem" onClick={act(doExport)} data-testid="menu-export">
            <Download size={14} aria-hidden="true" /> Export .weft.json
          </button>
          <button type="button" role="menuitem" onClick={act(doImport)} data-testid="menu-import">
            <Upload size={14} aria-hidden="true" /> Import .weft.json…
          </button>
          <hr />
          <button type="button" role="menuitem" className="button-danger" onClick={act(remove)} data-testid="menu-delete">
            <Trash2 size={14} aria-hidden="true" /> Delete…
          </button>
        </div>
      ) : null}
      {creating ? <NewWorkflowDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
