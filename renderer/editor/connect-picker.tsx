// "Connect to…" (C, with one step selected): the keyboard's way to draw an edge. A searchable
// list of the workflow's other steps; the step picked goes on to the outcome picker, as the end
// of a drag from a handle does.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { trapTab, useDialogFocus } from '../core/use-dialog-focus.ts';

interface Props {
  at: { x: number; y: number };
  from: string;
  steps: readonly Step[];
  onPick(to: string): void;
  onCancel(): void;
}

export function ConnectPicker({ at, from, steps, onPick, onCancel }: Props) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  useDialogFocus(root);
  const targets = useMemo(() => {
    const q = query.trim().toLowerCase();
    return steps.filter((s) => s.id !== from && (q === '' || s.id.toLowerCase().includes(q) || s.kind.includes(q)));
  }, [steps, from, query]);
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((a) => Math.min(targets.length - 1, a + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const step = targets[active];
      if (step !== undefined) onPick(step.id);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else trapTab(event);
  };
  const left = Math.min(at.x, window.innerWidth - 300);
  const top = Math.min(at.y, window.innerHeight - 360);
  const listId = `connect-from-${from}`;
  return (
    <div ref={root} className="popover palette-popover connect-picker" role="dialog" aria-label={`connect ${from} to`} style={{ left, top }} onKeyDown={onKey} data-testid="connect-picker">
      <div className="popover-title">
        Connect <span className="mono">{from}</span> to…
      </div>
      <div className="palette-list">
        <label className="palette-search">
          <input
            type="search"
            placeholder="Search steps"
            aria-label="search steps"
            aria-controls={listId}
            aria-activedescendant={targets[active] === undefined ? undefined : `${listId}-${targets[active].id}`}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            data-testid="connect-search"
          />
        </label>
        <ul role="listbox" id={listId} aria-label="target steps">
          {targets.map((step, i) => (
            <li
              key={step.id}
              id={`${listId}-${step.id}`}
              role="option"
              aria-selected={i === active}
              className="palette-item"
              data-testid={`connect-${step.id}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => onPick(step.id)}
            >
              <span className="palette-text">
                <span className="palette-kind mono">{step.id}</span>
                <span className="palette-blurb">{step.kind}</span>
              </span>
            </li>
          ))}
          {targets.length === 0 ? <li className="palette-empty">No step matches “{query}”.</li> : null}
        </ul>
      </div>
      <div className="popover-foot faint">↑↓ choose · Enter picks · Esc cancels</div>
    </div>
  );
}
