// The lines around a finding in a file's text, for the view of a file that does not parse: a few
// lines before and after, numbered, with the finding's span marked on each line it covers. A long
// line (a minified file is one line) is cut to a window around the mark, so the excerpt stays
// readable whatever the file.

export interface ExcerptLine {
  number: number;
  /** Text before, inside and after the mark (the mark empty on lines it does not touch). */
  before: string;
  marked: string;
  after: string;
  /** The line of the finding itself. */
  focus: boolean;
}

/** Lines shown before and after the finding's line. */
const CONTEXT = 3;
/** Lines of a span marked at most (an object missing a key spans many). */
const MAX_MARKED_LINES = 4;
/** Characters of a line shown around the mark. */
const WINDOW = 160;

/** The excerpt around `span` (offsets into `text`, its start on line `line`). */
export function excerpt(text: string, span: { offset: number; end: number; line: number }): ExcerptLine[] {
  const starts = lineStarts(text, span.line + CONTEXT + MAX_MARKED_LINES);
  const out: ExcerptLine[] = [];
  const first = Math.max(1, span.line - CONTEXT);
  const endLine = lineOf(starts, span.end);
  const last = Math.min(starts.length, Math.max(span.line, Math.min(endLine, span.line + MAX_MARKED_LINES - 1)) + CONTEXT);
  for (let n = first; n <= last; n++) {
    const from = starts[n - 1] ?? text.length;
    const next = starts[n];
    const to = next === undefined ? endOfLine(text, from) : next - 1;
    const marks = n >= span.line && n < span.line + MAX_MARKED_LINES;
    const a = marks ? Math.max(from, Math.min(span.offset, to)) : to;
    // An empty span (a syntax error at the end of the file) still shows one marked place.
    const b = marks ? Math.max(a, Math.min(span.end, to)) : to;
    out.push(cut(text.slice(from, a), text.slice(a, b), text.slice(b, to).replace(/\r$/, ''), n, n === span.line));
  }
  return out;
}

function cut(before: string, marked: string, after: string, number: number, focus: boolean): ExcerptLine {
  const m = marked.length > WINDOW ? `${marked.slice(0, WINDOW - 1)}…` : marked;
  const room = Math.max(20, Math.floor((WINDOW - m.length) / 2));
  const b = before.length > room ? `…${before.slice(before.length - room)}` : before;
  const c = after.length > room ? `${after.slice(0, room)}…` : after;
  return { number, before: b, marked: m, after: c, focus };
}

/** Offsets where lines 1… start, up to line `upTo` (the rest of the file is not scanned). */
function lineStarts(text: string, upTo: number): number[] {
  const starts = [0];
  for (let k = text.indexOf('\n'); k >= 0 && starts.length < upTo + 1; k = text.indexOf('\n', k + 1)) starts.push(k + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let line = 1;
  while (line < starts.length && (starts[line] ?? Infinity) <= offset) line++;
  return line;
}

function endOfLine(text: string, from: number): number {
  const k = text.indexOf('\n', from);
  return k < 0 ? text.length : k;
}
