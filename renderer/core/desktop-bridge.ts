// Whether the app runs in the desktop shell: the preload puts the contract's API on window (the
// name DESKTOP_GLOBAL); in a browser (weft serve) there is nothing there and nothing changes.
import { DESKTOP_GLOBAL, type DesktopApi } from '../../shared/desktop/preload-contract.ts';

const METHODS = ['session', 'setDocumentState', 'openFile', 'saveFile', 'openExternal', 'onMenuAction', 'onSessionChanged', 'onOpenWorkflow'] as const;

export function isDesktopApi(value: unknown): value is DesktopApi {
  if (typeof value !== 'object' || value === null) return false;
  return METHODS.every((m) => typeof Reflect.get(value, m) === 'function') && typeof Reflect.get(value, 'platform') === 'string';
}

/** The desktop shell's API, or null in a browser. `scope` is `window` in the app. */
export function findDesktopApi(scope: object = globalThis): DesktopApi | null {
  const value: unknown = Reflect.get(scope, DESKTOP_GLOBAL);
  return isDesktopApi(value) ? value : null;
}
