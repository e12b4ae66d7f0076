// One row of the JSON view: indent, a toggle for a container, the key, and the value (a leaf, a
// container's size, or a left-out value with its Load button); copy path and copy value on
// hover or focus. Memoized: scrolling re-renders only rows that enter the window.
import { memo, type CSSProperties } from 'react';
import { Archive, ChevronRight, Copy, Link2, Lock } from 'lucide-react';
import type { ElidedValue } from '../../../shared/api/elided-value.ts';
import type { JsonRow } from './json-tree.ts';
import { leafText } from './json-search.ts';
import { formatBytes, formatCount } from './format-size.ts';
import { Highlight } from './highlight.tsx';

/** A left-out value being fetched, or why fetching it failed. */
/** A row's fetch or opening: under way, or failed (`error` in a word or two; `detail`, the whole message, as its tooltip). */
export type LoadStatus = { loading: true } | { error: string; detail?: string };

/** Characters of a string shown in its row (copy gives the whole value). */
const SHOWN_CHARS = 400;

export interface JsonRowProps {
  row: JsonRow;
  rootLabel: string;
  query: string;
  match: 'none' | 'match' | 'current';
  /** The row the keyboard is on (the tree's active descendant). */
  active: boolean;
  id: string;
  status: LoadStatus | undefined;
  canLoad: boolean;
  style: CSSProperties;
  onToggle: (path: string) => void;
  onLoad: (stub: ElidedValue) => void;
  /** Opens the value kept by reference at a row's path. */
  onOpenArtifact: (path: string) => void;
  onMore: (path: string, loaded: number) => void;
  onCopyPath: (path: string) => void;
  onCopyValue: (row: Extract<JsonRow, { type: 'node' }>) => void;
}

export const JsonRowView = memo(function JsonRowView(p: JsonRowProps) {
  const { row } = p;
  const indent = { paddingLeft: `calc(${row.depth} * var(--json-indent))` };
  if (row.type === 'more') {
    return (
      <div id={p.id} className="json-row json-row-more" style={{ ...p.style, ...indent }} role="treeitem" aria-level={row.depth + 1} aria-selected={p.active} data-active={p.active || undefined} data-testid="json-more" data-path={row.path}>
        <span className="json-toggle-space" />
        {p.status !== undefined && 'loading' in p.status ? (
          <span className="json-note">loading…</span>
        ) : (
          <button type="button" className="json-link" onClick={() => p.onMore(row.path, row.loaded)} disabled={!p.canLoad}>
            load more ({row.loaded.toLocaleString('en-US')} of {row.total.toLocaleString('en-US')} shown)
          </button>
        )}
        {p.status !== undefined && 'error' in p.status ? <span className="json-error">{p.status.error}</span> : null}
      </div>
    );
  }
  const container = row.count !== null;
  return (
    <div
      id={p.id}
      className="json-row"
      style={{ ...p.style, ...indent }}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={container ? row.open : undefined}
      aria-selected={p.active}
      data-active={p.active || undefined}
      data-testid="json-row"
      data-path={row.path}
      data-match={p.match === 'none' ? undefined : p.match}
    >
      {container ? (
        <button type="button" className="json-toggle" aria-label={`${row.open ? 'collapse' : 'expand'} ${row.path}`} onClick={() => p.onToggle(row.path)}>
          <ChevronRight size={13} className={row.open ? 'json-chevron-open' : undefined} aria-hidden />
        </button>
      ) : (
        <span className="json-toggle-space" />
      )}
      <span className={row.key === null ? 'json-key json-root' : typeof row.key === 'number' ? 'json-index' : 'json-key'}>
        {row.key === null ? p.rootLabel : typeof row.key === 'number' ? row.key : <Highlight text={row.key} query={p.query} />}
        <span className="json-colon">:</span>
      </span>
      <Value {...p} />
      <span className="json-actions">
        <button type="button" className="json-action" title={`copy the path ${row.path}`} aria-label={`copy the path ${row.path}`} data-testid="json-copy-path" onClick={() => p.onCopyPath(row.path)}>
          <Link2 size={12} aria-hidden />
        </button>
        <button type="button" className="json-action" title="copy the value as JSON" aria-label={`copy the value of ${row.path}`} data-testid="json-copy-value" onClick={() => p.onCopyValue(row)}>
          <Copy size={12} aria-hidden />
        </button>
      </span>
    </div>
  );
});

function Value(p: JsonRowProps) {
  const row = p.row;
  if (row.type !== 'node') return null;
  if (row.elided !== null) {
    const stub = row.elided;
    return (
      <span className="json-elided">
        <span className="json-note">
          {stub.kind}
          {stub.count === null ? '' : ` · ${formatCount(stub.count, stub.kind)}`} · {formatBytes(stub.bytes)}
        </span>
        {p.status !== undefined && 'loading' in p.status ? (
          <span className="json-note">loading…</span>
        ) : p.canLoad ? (
          <button type="button" className="json-link" data-testid="json-load" onClick={() => p.onLoad(stub)} title={`fetch ${stub.path}`}>
            load
          </button>
        ) : (
          <span className="json-note" title={stub.preview}>
            not loaded
          </span>
        )}
        {p.status !== undefined && 'error' in p.status ? <span className="json-error">{p.status.error}</span> : null}
      </span>
    );
  }
  if (row.artifact !== null) {
    const a = row.artifact;
    const sensitive = a.sensitive === true;
    return (
      <span className={sensitive ? 'json-artifact json-artifact-sensitive' : 'json-artifact'} data-testid="json-artifact" data-sensitive={sensitive || undefined} title={`${sensitive ? 'a sensitive value, redacted: ' : 'kept in the artifact store: '}sha256 ${a.sha256} · ${formatBytes(a.size)}`}>
        <span className="json-artifact-badge">
          {sensitive ? <Lock size={11} aria-hidden /> : <Archive size={11} aria-hidden />}
          {sensitive ? 'redacted' : `stored · ${formatBytes(a.size)}`}
        </span>
        {p.status !== undefined && 'loading' in p.status ? (
          <span className="json-note">opening…</span>
        ) : p.status !== undefined && 'error' in p.status && p.canLoad ? (
          // In the reveal button's place, so it fits a narrow panel; the whole reason is below the tree.
          <button type="button" className="json-link json-link-failed" data-testid="json-open-error" onClick={() => p.onOpenArtifact(row.path)} title={`${p.status.detail ?? p.status.error}; click to try again`}>
            {p.status.error}
          </button>
        ) : p.canLoad ? (
          <button type="button" className="json-link" data-testid="json-open-artifact" onClick={() => p.onOpenArtifact(row.path)} title={sensitive ? `open ${row.path}; the opening is recorded in the run's events` : `open ${row.path}`}>
            {sensitive ? 'reveal' : 'open'}
          </button>
        ) : null}
      </span>
    );
  }
  if (row.count !== null) {
    const brackets = row.kind === 'array' ? '[]' : '{}';
    return (
      <span className="json-summary">
        {row.open ? null : <span className="json-brackets">{`${brackets.charAt(0)}…${brackets.charAt(1)}`}</span>}
        <span className="json-note">{formatCount(row.count, row.kind)}</span>
      </span>
    );
  }
  const text = leafText(row.value);
  const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  return (
    <span className={`json-value json-${row.kind}`} title={text.length > 80 ? text.slice(0, 2000) : undefined}>
      {row.kind === 'string' ? '"' : null}
      <Highlight text={shown} query={p.query} />
      {row.kind === 'string' ? '"' : null}
    </span>
  );
}
