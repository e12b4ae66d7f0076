// Asked when an edge is drawn: which outcome(s) of the source step it follows. Only outcomes the
// source's kind can produce are offered; Enter takes the first (usually succeeded). By keyboard:
// the arrows or Tab move between outcomes, Enter takes one, Space marks several for the next
// Enter; the focus goes back to where it was when the picker closes.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { trapTab, useDialogFocus } from '../core/use-dialog-focus.ts';
import type { EdgeOutcome } from '../../shared/definition/names.ts';

interface Props {
  at: { x: number; y: number };
  from: string;
  to: string;
  options: EdgeOutcome[];
  onPick(outcomes: EdgeOutcome[]): void;
  onCancel(): void;
}

export function OutcomePicker({ at, from, to, options, onPick, onCancel }: Props) {
  const [chosen, setChosen] = useState<EdgeOutcome[]>([]);
  const first = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.focus(), []);
  useDialogFocus(root);
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowRight' || event.key === 'ArrowUp' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.outcome-option')];
      const at = buttons.findIndex((b) => b === document.activeElement);
      const step = event.key === 'ArrowDown' || event.key === 'ArrowRight' ? 1 : -1;
      buttons[(at + step + buttons.length) % buttons.length]?.focus();
    } else if (event.key === ' ') {
      // Space marks an outcome to follow with the next one taken (Shift-click's keyboard twin).
      const marked = options.find((o) => event.target instanceof HTMLElement && event.target.dataset['outcome'] === o);
      if (marked === undefined) return;
      event.preventDefault();
      setChosen((c) => (c.includes(marked) ? c.filter((x) => x !== marked) : [...c, marked]));
    } else trapTab(event);
  };
  const toggle = (o: EdgeOutcome) => setChosen((c) => (c.includes(o) ? c.filter((x) => x !== o) : [...c, o]));
  const left = Math.min(at.x, window.innerWidth - 260);
  const top = Math.min(at.y, window.innerHeight - 320);
  return (
    <div ref={root} className="popover outcome-picker" role="dialog" aria-label={`outcome of the edge ${from} → ${to}`} style={{ left, top }} onKeyDown={onKey} data-testid="outcome-picker">
      <div className="popover-title">
        <span className="mono">{from}</span> → <span className="mono">{to}</span>: on which outcome?
      </div>
      <div className="outcome-options">
        {options.map((o, i) => (
          <button
            key={o}
            ref={i === 0 ? first : undefined}
            type="button"
            className="outcome-option"
            data-outcome={o}
            data-testid={`outcome-${o}`}
            aria-pressed={chosen.includes(o)}
            onClick={(e) => (e.shiftKey ? toggle(o) : onPick(chosen.length > 0 && !chosen.includes(o) ? [...chosen, o] : [o]))}
          >
            <span className="edge-outcome" data-outcome={o}>
              {o.replace('_', ' ')}
            </span>
          </button>
        ))}
      </div>
      <div className="popover-foot faint">Shift-click or Space to follow several outcomes · Esc cancels</div>
    </div>
  );
}
