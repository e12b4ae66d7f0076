// What the app says is open and whether it has unsaved changes (DESKTOP_CHANNELS.documentState):
// shown in the window title ("● order.weft.json — payments — Weft Studio"; on macOS the close
// button's dot shows unsaved instead of the bullet, as native document apps do) and read by the
// quit prompt.
import { basename } from 'node:path';
import type { DocumentState } from '../../shared/desktop/preload-contract.ts';

export const APP_TITLE = 'Weft Studio';
const DASH = ' \u2014 ';

/** The window title for a document state in a workspace folder. */
export function windowTitle(state: DocumentState | undefined, workspace: string | undefined, platform: NodeJS.Platform): string {
  const name = state?.title.trim() ?? '';
  const parts = [name, workspace === undefined ? '' : basename(workspace), APP_TITLE].filter((p) => p !== '');
  const unsaved = state?.dirty === true && platform !== 'darwin' ? '\u25cf ' : '';
  return `${unsaved}${parts.join(DASH)}`;
}

interface TitledWindow {
  setTitle(title: string): void;
  setDocumentEdited(edited: boolean): void;
  isDestroyed(): boolean;
}

/** Holds the latest document state and keeps the window's title (and macOS dot) in step with it. */
export class DocumentTracker {
  private state: DocumentState | undefined;
  private readonly listeners: Array<(state: DocumentState) => void> = [];

  constructor(
    private readonly platform: NodeJS.Platform,
    private readonly workspace: () => string | undefined,
  ) {}

  get current(): DocumentState | undefined {
    return this.state;
  }

  get dirty(): boolean {
    return this.state?.dirty === true;
  }

  update(state: DocumentState, window: TitledWindow | undefined): void {
    this.state = state;
    this.render(window);
    for (const listener of [...this.listeners]) listener(state);
  }

  /** Forgets the document (the workspace changed or the page reloaded) and shows just the workspace. */
  reset(window: TitledWindow | undefined): void {
    this.state = undefined;
    this.render(window);
  }

  onChange(listener: (state: DocumentState) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  render(window: TitledWindow | undefined): void {
    if (window === undefined || window.isDestroyed()) return;
    window.setTitle(windowTitle(this.state, this.workspace(), this.platform));
    if (this.platform === 'darwin') window.setDocumentEdited(this.dirty);
  }
}
