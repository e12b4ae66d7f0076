// The editor's File menu: new, rename, export, import and delete of workflow files. Each item
// runs a command of the registry (file-commands.ts), as the desktop File menu does.
import { useEffect, useRef, useState } from 'react';
import { ChevronDown, Download, FilePlus2, PencilLine, Trash2, Upload } from 'lucide-react';
import { run, type CommandId } from './editor-commands.ts';

export function FileMenu() {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (anchor.current !== null && !anchor.current.contains(e.target instanceof Node ? e.target : null)) setOpen(false);
    };
    window.addEventListener('mousedown', close);
    return () => window.removeEventListener('mousedown', close);
  }, [open]);
  const act = (command: CommandId) => () => {
    setOpen(false);
    run(command);
  };
  return (
    <div className="menu-anchor" ref={anchor}>
      <button type="button" className="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="file-menu">
        File <ChevronDown size={13} aria-hidden="true" />
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label="file">
          <button type="button" role="menuitem" onClick={act('newWorkflow')} data-testid="menu-new">
            <FilePlus2 size={14} aria-hidden="true" /> New workflow…
          </button>
          <button type="button" role="menuitem" onClick={act('renameFile')} data-testid="menu-rename">
            <PencilLine size={14} aria-hidden="true" /> Rename…
          </button>
          <hr />
          <button type="button" role="menuitem" onClick={act('exportFile')} data-testid="menu-export">
            <Download size={14} aria-hidden="true" /> Export .weft.json
          </button>
          <button type="button" role="menuitem" onClick={act('importFile')} data-testid="menu-import">
            <Upload size={14} aria-hidden="true" /> Import .weft.json…
          </button>
          <hr />
          <button type="button" role="menuitem" className="button-danger" onClick={act('deleteFile')} data-testid="menu-delete">
            <Trash2 size={14} aria-hidden="true" /> Delete…
          </button>
        </div>
      ) : null}
    </div>
  );
}
