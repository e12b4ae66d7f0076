// `?`: every command of the editor's registry that has keys, grouped, with its keys: the same
// table the key handler reads, so a key shown is a key that works.
import { useEffect, useRef } from 'react';
import { X } from 'lucide-react';
import { shortcutGroups } from './editor-commands.ts';
import { trapTab, useDialogFocus } from '../core/use-dialog-focus.ts';

export function CheatSheet({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => close.current?.focus(), []);
  useDialogFocus(root);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={root}
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
          } else trapTab(e);
        }}
      >
        <div className="modal-head">
          <h2>Keyboard shortcuts</h2>
          <button ref={close} type="button" className="icon-button" onClick={onClose} aria-label="close">
            <X size={15} aria-hidden="true" />
          </button>
        </div>
        <div className="cheat-groups">
          {shortcutGroups().map(({ group, rows }) => (
            <section key={group}>
              <h3>{group}</h3>
              <dl>
                {rows.map((row) => (
                  <div key={row.id} className="cheat-row" data-command={row.id}>
                    <dt>{row.label}</dt>
                    <dd>
                      {row.keys.map((k) => (
                        <kbd key={k}>{k}</kbd>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <section>
            <h3>Keyboard on the canvas</h3>
            <dl>
              <div className="cheat-row"><dt>Steps, then edges</dt><dd><kbd>Tab</kbd> <kbd>Shift+Tab</kbd></dd></div>
              <div className="cheat-row"><dt>Select the focused step or edge</dt><dd><kbd>Enter</kbd></dd></div>
              <div className="cheat-row"><dt>Move the selected step</dt><dd><kbd>↑</kbd> <kbd>↓</kbd> <kbd>←</kbd> <kbd>→</kbd></dd></div>
              <div className="cheat-row"><dt>Follow several outcomes (outcome picker)</dt><dd><kbd>Space</kbd>, then <kbd>Enter</kbd></dd></div>
            </dl>
          </section>
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
