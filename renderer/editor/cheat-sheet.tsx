// `?`: every keyboard command of the editor, grouped, from the same table the handler uses.
import { useEffect, useRef } from 'react';
import { X } from 'lucide-react';
import { COMMANDS, keyLabel, type CommandSpec } from './editor-commands.ts';

const GROUPS: CommandSpec['group'][] = ['File', 'Edit', 'Canvas', 'View'];

export function CheatSheet({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal cheat-sheet"
        role="dialog"
        aria-modal="true"
        aria-label="keyboard shortcuts"
        data-testid="cheat-sheet"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape' || e.key === '?') {
            e.preventDefault();
            onClose();
          }
        }}
      >
        <div className="modal-head">
          <h2>Keyboard shortcuts</h2>
          <button ref={close} type="button" className="icon-button" onClick={onClose} aria-label="close">
            <X size={15} aria-hidden="true" />
          </button>
        </div>
        <div className="cheat-groups">
          {GROUPS.map((group) => (
            <section key={group}>
              <h3>{group}</h3>
              <dl>
                {COMMANDS.filter((c) => c.group === group).map((c) => (
                  <div key={c.id} className="cheat-row">
                    <dt>{c.label}</dt>
                    <dd>
                      {c.keys
                        .filter((k, i, all) => all.findIndex((o) => keyLabel(o) === keyLabel(k)) === i)
                        .map((k) => (
                          <kbd key={keyLabel(k)}>{keyLabel(k)}</kbd>
                        ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <section>
            <h3>Mouse</h3>
            <dl>
              <div className="cheat-row"><dt>Box select</dt><dd><kbd>Shift</kbd>+drag</dd></div>
              <div className="cheat-row"><dt>Add to selection</dt><dd><kbd>Shift</kbd>+click</dd></div>
              <div className="cheat-row"><dt>Connect</dt><dd>drag from a handle</dd></div>
              <div className="cheat-row"><dt>Add and connect</dt><dd>drop an edge on the canvas</dd></div>
            </dl>
          </section>
        </div>
      </div>
    </div>
  );
}
