// The buttons that fold the panels beside the editor's canvas away and back: one in each open
// panel's head, and a narrow rail with the panel's name where a folded panel was. Each runs the
// panel's command, so its key (B, I) and the button do the same, and the choice is remembered.
import type { ReactNode } from 'react';
import { run, titleOf, type CommandId } from './editor-commands.ts';

interface FoldProps {
  command: CommandId;
  /** What the button does, as its accessible name: "Hide step palette". */
  label: string;
  expanded: boolean;
  controls?: string;
  testId: string;
  children: ReactNode;
}

export function FoldButton({ command, label, expanded, controls, testId, children }: FoldProps) {
  return (
    <button type="button" className="icon-button fold-button" aria-label={label} aria-expanded={expanded} aria-controls={controls} title={`${label} · ${titleOf(command)}`} onClick={() => run(command)} data-testid={testId}>
      {children}
    </button>
  );
}

/** Where a folded panel was: a narrow bar with one button that opens it again, named on the bar. */
export function PanelRail({ side, command, label, name, testId, icon }: { side: 'left' | 'right'; command: CommandId; label: string; name: string; testId: string; icon: ReactNode }) {
  return (
    <div className="panel-rail" data-side={side}>
      <FoldButton command={command} label={label} expanded={false} testId={testId}>
        {icon}
      </FoldButton>
      <span className="panel-rail-name" aria-hidden="true">
        {name}
      </span>
    </div>
  );
}
