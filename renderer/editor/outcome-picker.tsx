// Asked when an edge is drawn: which outcome(s) of the source step it follows. Only outcomes the
// source's kind can produce are offered; Enter takes the first (usually succeeded).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
  useEffect(() => first.current?.focus(), []);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  const toggle = (o: EdgeOutcome) => setChosen((c) => (c.includes(o) ? c.filter((x) => x !== o) : [...c, o]));
  const left = Math.min(at.x, window.innerWidth - 260);
  const top = Math.min(at.y, window.innerHeight - 320);
  return (
    <div className="popover outcome-picker" role="dialog" aria-label={`outcome of the edge ${from} → ${to}`} style={{ left, top }} onKeyDown={onKey} data-testid="outcome-picker">
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
      <div className="popover-foot faint">Shift-click to follow several outcomes · Esc cancels</div>
    </div>
  );
}
