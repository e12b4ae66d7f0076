// The runs list's selection: the ids ticked, kept across pages and live updates of the list (a row
// that leaves the list, say after its state changed under a state filter, stays selected until
// cleared), and the mode (the checkbox column shows only while selecting).
import { useCallback, useMemo, useState } from 'react';

export interface BulkSelection {
  selecting: boolean;
  setSelecting(on: boolean): void;
  ids: readonly string[];
  has(id: string): boolean;
  toggle(id: string): void;
  /** Adds every id (select all), or with `only`, makes them the whole selection. */
  add(ids: readonly string[], only?: boolean): void;
  clear(): void;
}

export function useBulkSelection(): BulkSelection {
  const [selecting, setMode] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((id: string) => {
    setChosen((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const add = useCallback((ids: readonly string[], only = false) => setChosen((s) => new Set([...(only ? [] : s), ...ids])), []);
  const clear = useCallback(() => setChosen(new Set()), []);
  const setSelecting = useCallback((on: boolean) => {
    setMode(on);
    if (!on) setChosen(new Set());
  }, []);
  const ids = useMemo(() => [...chosen], [chosen]);
  return { selecting, setSelecting, ids, has: (id) => chosen.has(id), toggle, add, clear };
}
