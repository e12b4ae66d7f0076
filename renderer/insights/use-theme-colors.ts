// Chart colours from the theme's CSS custom properties (insights.css), read at render: the SVG
// attributes recharts writes cannot hold var(). The theme is one attribute on <html>; when it
// changes (the header's toggle, or anything else that sets it) the colours are read again.
import { useMemo, useSyncExternalStore } from 'react';

export interface ChartColors {
  success: string;
  retry: string;
  compensation: string;
  intervention: string;
  runs: string;
  cost: string;
  grid: string;
  axis: string;
  text: string;
  surface: string;
  border: string;
}

function subscribe(changed: () => void): () => void {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

const themeAttribute = (): string => document.documentElement.dataset['theme'] ?? '';

function read(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string): string => style.getPropertyValue(name).trim() || 'currentColor';
  return {
    success: v('--insights-success'),
    retry: v('--insights-retry'),
    compensation: v('--insights-compensation'),
    intervention: v('--insights-intervention'),
    runs: v('--insights-runs'),
    cost: v('--insights-cost'),
    grid: v('--border'),
    axis: v('--text-faint'),
    text: v('--text'),
    surface: v('--bg-raised'),
    border: v('--border-strong'),
  };
}

export function useThemeColors(): ChartColors {
  const theme = useSyncExternalStore(subscribe, themeAttribute);
  // Keyed on the theme: the same names resolve to the other theme's values.
  return useMemo(read, [theme]);
}
