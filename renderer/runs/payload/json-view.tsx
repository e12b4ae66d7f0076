// A collapsible, searchable JSON tree for inputs, outputs and evidence of any size
// (docs/payloads.md). Only the rows in view are rendered (@tanstack/react-virtual over the
// flattened open tree); flattening and searching run a slice at a time, so a value of several
// megabytes never blocks typing or scrolling. Values the server left out (ElidedValue stubs) get
// a "load" button that fetches them by path, one level at a time, in pages of PAGE entries.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronUp, ChevronsDownUp, ChevronsUpDown, Search } from 'lucide-react';
import { RouteCallError } from '../../../shared/api/call-route.ts';
import { isElidedValue, type ElidedValue } from '../../../shared/api/elided-value.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { PayloadClient } from '../../api/payload-client.ts';
import { clients } from '../../api/clients.ts';
import { defaultActor } from '../actions/who.ts';
import { entriesOf, expandAllPaths, type JsonRow, type LoadedValue } from './json-tree.ts';
import { JsonRowView, type LoadStatus } from './json-row.tsx';
import { treeKeyAction } from './tree-keys.ts';
import { MAX_MATCHES, useSearch, useTreeRows } from './use-sliced.ts';
import './json-view.css';
import './json-artifact.css';

/** Entries fetched per page of a large array or object. */
export const PAGE = 500;
/** "Expand all" opens containers breadth first while the rows stay under this. */
export const EXPAND_ALL_ROWS = 5000;
const ROW_HEIGHT = 22;

export interface JsonViewProps {
  value: JsonValue;
  /** The run the value belongs to: with it, left-out values can be fetched. */
  runId?: string;
  /** Where the value is in the run (`steps.fetch.attempts[0].output`): rows' paths start here. */
  valuePath?: string;
  /** What the value is ("output"): the root row's name and the tree's accessible name. */
  label: string;
  testId?: string;
  /** The client to fetch with; the app's session client when left out. */
  client?: PayloadClient | null;
}

type NodeRow = Extract<JsonRow, { type: 'node' }>;

export function JsonView({ value, runId, valuePath, label, testId = 'json-view', client }: JsonViewProps) {
  const rootPath = valuePath ?? (isElidedValue(value) ? value.path : '$');
  const api = client === undefined ? (runId === undefined ? null : (clients()?.payload ?? null)) : client;
  const canLoad = runId !== undefined && api !== null;
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set([rootPath]));
  const [loaded, setLoaded] = useState<ReadonlyMap<string, LoadedValue>>(() => new Map());
  const [status, setStatus] = useState<ReadonlyMap<string, LoadStatus>>(() => new Map());
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState(false);
  const [current, setCurrent] = useState(-1);
  const [note, setNote] = useState('');
  /** Why the last opening of a value kept by reference failed (shown below the tree until the next one). */
  const [problem, setProblem] = useState('');
  const [pendingScroll, setPendingScroll] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  // Another value: start closed again, with nothing loaded.
  const shown = useRef({ value, rootPath });
  useEffect(() => {
    if (shown.current.value === value && shown.current.rootPath === rootPath) return;
    shown.current = { value, rootPath };
    setOpen(new Set([rootPath]));
    setLoaded(new Map());
    setStatus(new Map());
  }, [value, rootPath]);

  const search = useSearch(value, rootPath, query, loaded);
  const matchIndex = useMemo(() => new Map(search.matches.map((m, i) => [m.path, i])), [search.matches]);
  // With the filter on, the containers of the matches open (once the search is done, so the tree
  // is not flattened again at every slice).
  const ancestors = useMemo(() => (filter && search.done ? new Set(search.matches.flatMap((m) => m.ancestors)) : null), [filter, search.done, search.matches]);
  const shownOpen = useMemo(() => (ancestors === null ? open : new Set([...open, ...ancestors])), [open, ancestors]);
  const tree = useTreeRows(value, rootPath, shownOpen, loaded);
  const rows = useMemo(
    () => (ancestors === null || query === '' ? tree.rows : tree.rows.filter((r) => matchIndex.has(r.path) || ancestors.has(r.path) || r.type === 'more')),
    [tree.rows, ancestors, matchIndex, query],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });

  useEffect(() => setCurrent(-1), [query]);
  const activeRow = Math.min(active, Math.max(0, rows.length - 1));
  useEffect(() => {
    if (pendingScroll === null) return;
    const at = rows.findIndex((r) => r.path === pendingScroll && r.type === 'node');
    if (at >= 0) {
      virtualizer.scrollToIndex(at, { align: 'center' });
      setActive(at);
      setPendingScroll(null);
    }
  }, [rows, pendingScroll, virtualizer]);

  const go = useCallback(
    (step: 1 | -1) => {
      const n = search.matches.length;
      if (n === 0) return;
      const next = current < 0 ? (step === 1 ? 0 : n - 1) : (current + step + n) % n;
      const m = search.matches[next];
      if (m === undefined) return;
      setCurrent(next);
      setOpen((prev) => (m.ancestors.every((a) => prev.has(a)) ? prev : new Set([...prev, ...m.ancestors])));
      setPendingScroll(m.path);
    },
    [search.matches, current],
  );

  const toggle = useCallback((path: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  }, []);

  const fetchInto = useCallback(
    async (path: string, offset: number, kind: ElidedValue['kind'] | 'page') => {
      if (!canLoad || api === null || runId === undefined) return;
      setStatus((s) => new Map(s).set(path, { loading: true }));
      try {
        const container = kind === 'page' || kind === 'object' || kind === 'array';
        const got = await api.value(runId, path, container ? { depth: 1, offset, limit: PAGE } : {});
        setLoaded((prev) => new Map(prev).set(path, { value: offset === 0 ? got.value : merge(prev.get(path)?.value ?? null, got.value), total: got.total }));
        if (container) setOpen((prev) => new Set(prev).add(path));
        setStatus((s) => {
          const next = new Map(s);
          next.delete(path);
          return next;
        });
      } catch (error) {
        setStatus((s) => new Map(s).set(path, { error: error instanceof Error ? error.message : String(error) }));
      }
    },
    [api, canLoad, runId],
  );
  const load = useCallback((stub: ElidedValue) => void fetchInto(stub.path, 0, stub.kind), [fetchInto]);
  // A value kept by reference opens in its place; a sensitive one's opening is recorded, under the
  // name the app acts as (as for every run action), and refused when the workspace policy does not
  // list that name among its openers (docs/long-running.md, docs/policies.md).
  const openArtifact = useCallback(
    (path: string) => {
      if (!canLoad || api === null || runId === undefined) return;
      setStatus((s) => new Map(s).set(path, { loading: true }));
      setProblem('');
      const by = defaultActor();
      api.openArtifact(runId, path, by).then(
        (got) => {
          const value = got.value as JsonValue;
          setLoaded((prev) => new Map(prev).set(path, { value, total: null }));
          if (value !== null && typeof value === 'object') setOpen((prev) => new Set(prev).add(path));
          setStatus((s) => {
            const next = new Map(s);
            next.delete(path);
            return next;
          });
          if (got.recorded) setNote(`opened ${path} as ${by}; the opening is recorded in the run's events`);
        },
        (error: unknown) => {
          // The row says it in a word; the whole message (a policy's refusal names its rule and
          // file and says what to do) goes below the tree, where it has room.
          const detail = error instanceof Error ? error.message : String(error);
          const refused = error instanceof RouteCallError && error.code === 'refused';
          setStatus((s) => new Map(s).set(path, { error: refused ? 'refused' : 'not opened', detail }));
          setProblem(`${refused ? 'Not opened' : 'Could not open it'}: ${detail}`);
        },
      );
    },
    [api, canLoad, runId],
  );
  const more = useCallback((path: string, offset: number) => void fetchInto(path, offset, 'page'), [fetchInto]);

  const copy = useCallback((text: string, what: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setNote(`copied ${what}`),
      () => setNote(`could not copy ${what}: the browser refused the clipboard`),
    );
  }, []);
  const copyPath = useCallback((path: string) => copy(path, 'the path'), [copy]);
  const copyValue = useCallback(
    (row: NodeRow) => {
      const partial = row.elided !== null || (row.count !== null && row.count > entriesOf(row.value).length) || holdsStub(row.value);
      if (!partial) {
        copy(typeof row.value === 'string' ? row.value : JSON.stringify(row.value, null, 2), 'the value');
        return;
      }
      if (!canLoad || api === null || runId === undefined) {
        setNote('this value is not all here: open it from a running app to copy it whole');
        return;
      }
      setNote('fetching the whole value to copy it…');
      api.value(runId, row.path).then(
        (got) => copy(typeof got.value === 'string' ? got.value : JSON.stringify(got.value, null, 2), 'the value'),
        (error: unknown) => setNote(`could not fetch ${row.path}: ${error instanceof Error ? error.message : String(error)}`),
      );
    },
    [api, canLoad, copy, runId],
  );

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      go(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape' && query !== '') {
      e.preventDefault();
      setQuery('');
    }
  };

  const onTreeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = treeKeyAction(e.key, rows, activeRow);
    if (action === null) return;
    e.preventDefault();
    if (action.type === 'move') {
      setActive(action.to);
      virtualizer.scrollToIndex(action.to);
    } else if (action.type === 'toggle') toggle(action.path);
    else if (action.type === 'load') load(action.stub);
    else more(action.path, action.loaded);
  };

  const currentPath = current >= 0 ? search.matches[current]?.path : undefined;
  const found = search.matches.length;
  const count = query === '' ? '' : `${current >= 0 ? `${current + 1} / ` : ''}${found.toLocaleString('en-US')}${search.capped ? '+' : ''}${search.done ? '' : '…'} ${found === 1 ? 'match' : 'matches'}`;

  return (
    <div className="json-view" data-testid={testId}>
      <div className="json-toolbar">
        <label className="json-search">
          <Search size={13} aria-hidden />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onSearchKey}
            placeholder="Search keys and values"
            aria-label={`search ${label}`}
            data-testid="json-search"
            spellCheck={false}
          />
        </label>
        <span className="json-count" aria-live="polite" data-testid="json-count">
          {count}
        </span>
        <button type="button" className="json-tool" onClick={() => go(-1)} disabled={found === 0} aria-label="previous match" title="previous match (Shift+Enter)">
          <ChevronUp size={14} aria-hidden />
        </button>
        <button type="button" className="json-tool" onClick={() => go(1)} disabled={found === 0} aria-label="next match" title="next match (Enter)" data-testid="json-next">
          <ChevronDown size={14} aria-hidden />
        </button>
        <button type="button" className="json-tool json-tool-text" aria-pressed={filter} onClick={() => setFilter((f) => !f)} title="show only matches and what holds them" data-testid="json-filter">
          filter
        </button>
        <button type="button" className="json-tool" onClick={() => setOpen(expandAllPaths(value, rootPath, loaded, EXPAND_ALL_ROWS))} aria-label="expand all" title={`expand all (up to ${EXPAND_ALL_ROWS.toLocaleString('en-US')} rows)`} data-testid="json-expand-all">
          <ChevronsUpDown size={14} aria-hidden />
        </button>
        <button type="button" className="json-tool" onClick={() => setOpen(new Set([rootPath]))} aria-label="collapse all" title="collapse all" data-testid="json-collapse-all">
          <ChevronsDownUp size={14} aria-hidden />
        </button>
      </div>
      {search.capped ? <div className="json-note json-banner">showing the first {MAX_MATCHES.toLocaleString('en-US')} matches; type more to narrow the search</div> : null}
      <div
        className="json-scroller"
        ref={scroller}
        role="tree"
        tabIndex={0}
        aria-label={label}
        aria-activedescendant={rows.length > 0 ? `${testId}-row-${activeRow}` : undefined}
        onKeyDown={onTreeKey}
        data-rows={rows.length}
        data-ready={tree.done ? 'true' : 'false'}
      >
        <div className="json-rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            const m = row.type === 'node' && matchIndex.has(row.path) ? (row.path === currentPath ? 'current' : 'match') : 'none';
            return (
              <JsonRowView
                key={`${row.type}:${row.path}`}
                row={row}
                rootLabel={label}
                query={query}
                match={m}
                active={item.index === activeRow}
                id={`${testId}-row-${item.index}`}
                status={status.get(row.path)}
                canLoad={canLoad}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onToggle={toggle}
                onLoad={load}
                onOpenArtifact={openArtifact}
                onMore={more}
                onCopyPath={copyPath}
                onCopyValue={copyValue}
              />
            );
          })}
        </div>
        {query !== '' && filter && search.done && found === 0 ? <div className="json-empty">nothing matches “{query}”</div> : null}
      </div>
      {problem === '' ? null : (
        <div className="json-status json-problem" role="alert" data-testid="json-problem">
          {problem}
        </div>
      )}
      {note === '' ? null : (
        <div className="json-status" role="status">
          {note}
        </div>
      )}
    </div>
  );
}

/** A further page of an array or object, after what was loaded. */
function merge(before: JsonValue, page: JsonValue): JsonValue {
  if (Array.isArray(before) && Array.isArray(page)) return [...before, ...page];
  if (before !== null && typeof before === 'object' && !Array.isArray(before) && page !== null && typeof page === 'object' && !Array.isArray(page)) return { ...before, ...page };
  return page;
}

/** True when a stub is somewhere inside `v` (so copying it needs the server's whole value). */
function holdsStub(v: JsonValue): boolean {
  const stack: JsonValue[] = [v];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (x === null || typeof x !== 'object') continue;
    if (isElidedValue(x)) return true;
    for (const [, child] of entriesOf(x)) stack.push(child);
  }
  return false;
}
