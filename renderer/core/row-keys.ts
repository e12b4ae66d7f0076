// A table row that opens something behaves like a link: click, Enter or Space.
import type { KeyboardEvent } from 'react';

export function rowKeys(open: () => void): { onClick: () => void; onKeyDown: (e: KeyboardEvent) => void; role: 'link' } {
  return {
    role: 'link',
    onClick: open,
    onKeyDown: (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open();
      }
    },
  };
}
