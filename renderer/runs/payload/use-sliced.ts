// The JSON view's two slow jobs as React state: the rows of the open tree and the search's
// matches, each computed a slice at a time (slice-runner.ts) and restarted when its inputs change.
import { useEffect, useState } from 'react';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { flattenRows, type JsonRow, type Loaded } from './json-tree.ts';
import { searchJson, type JsonMatch } from './json-search.ts';
import { runInSlices } from './slice-runner.ts';

/** Most matches a search collects; the view says "N+" past it. */
export const MAX_MATCHES = 10_000;

/**
 * The rows of the tree. A first open shows rows as they come; a later change (a node opened or
 * closed) keeps the rows shown until the new ones are all there, so the list never shrinks under
 * the scroll position mid-way.
 */
export function useTreeRows(root: JsonValue, rootPath: string, open: ReadonlySet<string>, loaded: Loaded): { rows: JsonRow[]; done: boolean } {
  const [state, setState] = useState<{ rows: JsonRow[]; done: boolean }>({ rows: [], done: false });
  useEffect(() => {
    const rows: JsonRow[] = [];
    let shownAny = false;
    return runInSlices(flattenRows(root, rootPath, open, loaded), (items, done) => {
      for (const row of items) rows.push(row);
      if (done) setState({ rows, done: true });
      else
        setState((s) => {
          if (s.rows.length > 0 && !shownAny) return s;
          shownAny = true;
          return { rows: rows.slice(), done: false };
        });
    });
  }, [root, rootPath, open, loaded]);
  return state;
}

/** The matches of `query` (at most MAX_MATCHES), growing slice by slice; `done` when all are in. */
export function useSearch(root: JsonValue, rootPath: string, query: string, loaded: Loaded): { matches: JsonMatch[]; done: boolean; capped: boolean } {
  const [state, setState] = useState<{ matches: JsonMatch[]; done: boolean; capped: boolean }>({ matches: [], done: true, capped: false });
  useEffect(() => {
    if (query === '') {
      setState({ matches: [], done: true, capped: false });
      return undefined;
    }
    const matches: JsonMatch[] = [];
    setState({ matches: [], done: false, capped: false });
    return runInSlices(searchJson(root, rootPath, query, loaded), (items, done) => {
      for (const m of items) if (matches.length < MAX_MATCHES) matches.push(m);
      const capped = matches.length >= MAX_MATCHES;
      setState({ matches: matches.slice(), done: done || capped, capped });
      return !capped;
    });
  }, [root, rootPath, query, loaded]);
  return state;
}
