// The palette of step kinds: a searchable list beside the canvas to drag from (or press Enter
// on), and the same list as a popover where the keyboard command or a dropped edge opens it.
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { PanelLeftClose, Search } from 'lucide-react';
import { STEP_KINDS, type StepKind } from '../../shared/definition/names.ts';
import { KindIcon } from '../graph/kind-icon.tsx';
import { KIND_SPECS } from '../../shared/definition/step-kinds.ts';
import { KIND_VIEWS } from '../kinds/kind-views.ts';
import { KIND_DRAG_TYPE } from './kind-drag-type.ts';
import { FoldButton } from './panel-fold.tsx';
import { trapTab, useDialogFocus } from '../core/use-dialog-focus.ts';

export function matchKinds(query: string): StepKind[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...STEP_KINDS];
  return STEP_KINDS.filter((k) => k.includes(q) || KIND_VIEWS[k].blurb.toLowerCase().includes(q) || KIND_SPECS[k].family.includes(q));
}

interface ListProps {
  onPick(kind: StepKind): void;
  onCancel?: () => void;
  autoFocus?: boolean;
  draggable?: boolean;
  testId: string;
}

function KindList({ onPick, onCancel, autoFocus = false, draggable = false, testId }: ListProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const kinds = useMemo(() => matchKinds(query), [query]);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((a) => Math.min(kinds.length - 1, a + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const kind = kinds[active];
      if (kind !== undefined) onPick(kind);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel?.();
    }
  };
  return (
    <div className="palette-list" data-testid={testId} onKeyDown={onKey}>
      <label className="palette-search">
        <Search size={13} aria-hidden="true" />
        <input
          ref={input}
          type="search"
          placeholder="Search step kinds"
          aria-label="search step kinds"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
      </label>
      <ul role="listbox" aria-label="step kinds">
        {kinds.map((kind, i) => (
          <li
            key={kind}
            role="option"
            aria-selected={i === active}
            className="palette-item"
            data-family={KIND_SPECS[kind].family}
            data-testid={`palette-${kind}`}
            draggable={draggable}
            onDragStart={(e) => {
              e.dataTransfer.setData(KIND_DRAG_TYPE, kind);
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onMouseEnter={() => setActive(i)}
            onClick={() => onPick(kind)}
          >
            <span className="palette-icon" aria-hidden="true">
              <KindIcon kind={kind} size={15} />
            </span>
            <span className="palette-text">
              <span className="palette-kind">{kind}</span>
              <span className="palette-blurb">{KIND_VIEWS[kind].blurb}</span>
            </span>
          </li>
        ))}
        {kinds.length === 0 ? <li className="palette-empty">No kind matches “{query}”.</li> : null}
      </ul>
    </div>
  );
}

/** The palette beside the canvas. Clicking or Enter adds the kind at the view's centre. */
export const PaletteSidebar = memo(function PaletteSidebar({ onAdd }: { onAdd(kind: StepKind): void }) {
  return (
    <aside className="palette" id="editor-palette" aria-label="step palette">
      <div className="palette-head">
        Steps
        <FoldButton command="togglePalette" label="Hide step palette" expanded controls="editor-palette" testId="palette-hide">
          <PanelLeftClose size={15} aria-hidden="true" />
        </FoldButton>
      </div>
      <KindList onPick={onAdd} draggable testId="palette" />
      <p className="palette-tip">Drag onto the canvas, or press <kbd>N</kbd></p>
    </aside>
  );
});

/** The palette as a popover at a screen point (the keyboard command, or an edge dropped on the canvas). */
export function PalettePopover({ at, title, onPick, onCancel }: { at: { x: number; y: number }; title: string; onPick(kind: StepKind): void; onCancel(): void }) {
  const left = Math.min(at.x, window.innerWidth - 300);
  const top = Math.min(at.y, window.innerHeight - 420);
  // The focus goes back where it was when the popover closes, and Tab stays inside it.
  const root = useRef<HTMLDivElement>(null);
  useDialogFocus(root);
  return (
    <div ref={root} className="popover palette-popover" role="dialog" aria-label={title} style={{ left, top }} data-testid="palette-popover" onKeyDown={trapTab}>
      <div className="popover-title">{title}</div>
      <KindList onPick={onPick} onCancel={onCancel} autoFocus testId="palette-popover-list" />
    </div>
  );
}
