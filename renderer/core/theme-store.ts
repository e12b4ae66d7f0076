// Light and dark themes: follow the system until the user picks one, then keep the choice.
// The theme is one attribute on <html>; everything else reads the CSS tokens.
import { create } from 'zustand';
import type { ThemeChoice } from './theme-choice.ts';

export type { ThemeChoice };
export type Theme = 'light' | 'dark';

const KEY = 'weft.theme';

interface ThemeStore {
  choice: ThemeChoice;
  theme: Theme;
  cycle(): void;
  set(choice: ThemeChoice): void;
}

const systemTheme = (): Theme => (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
const resolve = (choice: ThemeChoice): Theme => (choice === 'system' ? systemTheme() : choice);

function stored(): ThemeChoice {
  const value = window.localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

function apply(theme: Theme): void {
  document.documentElement.dataset['theme'] = theme;
}

export const useTheme = create<ThemeStore>((set, get) => ({
  choice: stored(),
  theme: resolve(stored()),
  set(choice) {
    if (choice === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, choice);
    const theme = resolve(choice);
    apply(theme);
    set({ choice, theme });
  },
  cycle() {
    const order: ThemeChoice[] = ['system', 'light', 'dark'];
    const next = order[(order.indexOf(get().choice) + 1) % order.length] ?? 'system';
    get().set(next);
  },
}));

/** Applies the initial theme and follows the system while the choice is "system". */
export function followSystemTheme(): () => void {
  apply(useTheme.getState().theme);
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (useTheme.getState().choice === 'system') useTheme.getState().set('system');
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
