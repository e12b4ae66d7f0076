// Text with every occurrence of the search query marked (case-insensitive).
import type { ReactNode } from 'react';

export function Highlight({ text, query }: { text: string; query: string }): ReactNode {
  if (query === '') return text;
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(q); at >= 0 && parts.length < 40; at = lower.indexOf(q, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + q.length)}</mark>);
    from = at + q.length;
  }
  if (from === 0) return text;
  parts.push(text.slice(from));
  return parts;
}
