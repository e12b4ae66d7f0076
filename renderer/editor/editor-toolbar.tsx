// The editor's toolbar: the workflow's name and state, and buttons that run the editor's
// commands (enabled as the command is, titled with its label and key).
import type { ReactNode } from 'react';
import { Grid3x3, Keyboard, LayoutGrid, MapIcon, Maximize, Redo2, Save, Undo2 } from 'lucide-react';
import type { WorkflowDetail } from '../api/api-types.ts';
import { StartRunLauncher } from '../runs/actions/start-run-launcher.tsx';
import { isDirty, useEditor } from './editor-store.ts';
import { run, titleOf, type CommandId } from './editor-commands.ts';
import { useCommandEnabled } from './use-editor-commands.ts';
import { useEditorPrefs } from './editor-prefs.ts';
import { FileMenu } from './file-menu.tsx';
import { TestDraftButton } from './test-draft-dialog.tsx';

interface ButtonProps {
  command: CommandId;
  label: string;
  testId?: string;
  pressed?: boolean;
  className?: string;
  children: ReactNode;
}

function CommandButton({ command, label, testId, pressed, className = 'icon-button', children }: ButtonProps) {
  const enabled = useCommandEnabled(command);
  return (
    <button
      type="button"
      className={className}
      onClick={() => run(command)}
      disabled={!enabled}
      aria-label={label}
      aria-pressed={pressed}
      title={titleOf(command)}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

export function EditorToolbar({ summary }: { summary: WorkflowDetail['summary'] }) {
  const name = useEditor((s) => s.doc?.name ?? '');
  const version = useEditor((s) => s.doc?.version ?? 0);
  const dirty = useEditor(isDirty);
  const message = useEditor((s) => s.saving.message);
  const snap = useEditorPrefs((s) => s.snapToGrid);
  const minimap = useEditorPrefs((s) => s.showMinimap);
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="editor">
      <div className="editor-title">
        <span className="editor-name">{name}</span>
        <span className="editor-version" data-testid="editor-version">v{version}</span>
        {dirty ? (
          <span className="editor-dirty" data-testid="unsaved" title="unsaved changes">
            unsaved
          </span>
        ) : null}
        {message !== null ? (
          <span className="editor-saved" role="status" data-testid="save-status" data-kind={message.kind}>
            {message.text}
          </span>
        ) : null}
      </div>
      <div className="toolbar-group">
        <CommandButton command="undo" label="undo" testId="undo">
          <Undo2 size={15} aria-hidden="true" />
        </CommandButton>
        <CommandButton command="redo" label="redo" testId="redo">
          <Redo2 size={15} aria-hidden="true" />
        </CommandButton>
      </div>
      <div className="toolbar-group">
        <CommandButton command="autoLayout" label="auto-layout" testId="auto-layout">
          <LayoutGrid size={15} aria-hidden="true" />
        </CommandButton>
        <CommandButton command="fitView" label="fit view">
          <Maximize size={15} aria-hidden="true" />
        </CommandButton>
        <CommandButton command="toggleSnap" label="snap to grid" testId="snap" pressed={snap}>
          <Grid3x3 size={15} aria-hidden="true" />
        </CommandButton>
        <CommandButton command="toggleMinimap" label="minimap" testId="minimap-toggle" pressed={minimap}>
          <MapIcon size={15} aria-hidden="true" />
        </CommandButton>
        <CommandButton command="cheatSheet" label="keyboard shortcuts">
          <Keyboard size={15} aria-hidden="true" />
        </CommandButton>
      </div>
      <div className="toolbar-spacer" />
      <span className="faint mono editor-file" title={summary.file}>
        {summary.file}
      </span>
      <FileMenu />
      {summary.id !== null ? <TestDraftButton workflowId={summary.id} /> : null}
      {summary.id !== null ? <StartRunLauncher workflowId={summary.id} /> : null}
      <CommandButton command="save" label="Save" testId="save" className="button button-primary">
        <Save size={14} aria-hidden="true" /> Save
      </CommandButton>
    </div>
  );
}
