// The value a value path (shared/api/value-path.ts) names in a run's RunDetail: `steps` is
// addressed by step id, everything else as the JSON of the detail is laid out.
import type { JsonValue } from '../api/json-value.ts';
import type { RunDetail } from '../api/run-detail.ts';
import { formatValuePath, type PathSegment } from '../api/value-path.ts';
import { jsonOf } from './json-of.ts';

/** Found: the value. Not found: one line saying which part of the path does not exist. */
export type ValueAt = { found: true; value: JsonValue } | { found: false; message: string };

/**
 * The value at `segments` in `detail`.
 *
 * @example
 * valueAt(detail, ['steps', 'fetch', 'attempts', 0, 'output', 'items', 3]);
 * valueAt(detail, ['steps', 'nope']); // { found: false, message: 'the run has no step "nope" ...' }
 */
export function valueAt(detail: RunDetail, segments: readonly PathSegment[]): ValueAt {
  const [head, second, ...rest] = segments;
  if (head === 'steps' && second !== undefined) {
    const step = detail.steps.find((s) => s.id === second);
    if (step === undefined) {
      const ids = detail.steps.map((s) => s.id);
      return { found: false, message: `the run has no step "${String(second)}" (its steps: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}); address a step by its id, as steps.ID` };
    }
    return walk(step, rest, ['steps', second]);
  }
  const root = { run: detail.run, tasks: detail.tasks, children: detail.children, edges: detail.edges, steps: Object.fromEntries(detail.steps.map((s) => [s.id, s])) };
  return walk(root, segments, []);
}

/**
 * The value at `segments` inside one stored event of the run, addressed as `events[SEQ]...` (the
 * paths of the stubs in an elided events page); `segments` start after `events[SEQ]`.
 *
 * @example
 * valueInEvent(event, ['data', 'output', 'items', 3]);
 */
export function valueInEvent(event: { seq: number }, segments: readonly PathSegment[]): ValueAt {
  return walk(event, segments, ['events', event.seq]);
}

// Walks plain data (the detail is JSON but typed by its schema) and checks only what it returns.
function walk(start: unknown, segments: readonly PathSegment[], before: PathSegment[]): ValueAt {
  let v: unknown = start;
  const at = [...before];
  for (const seg of segments) {
    const here = at.length === 0 ? 'the run' : formatValuePath(at);
    if (Array.isArray(v)) {
      if (typeof seg !== 'number') return { found: false, message: `${here} is an array: index it with a number, as ${here}[0]` };
      const item: unknown = v[seg];
      if (item === undefined) return { found: false, message: `${here} has ${v.length} item${v.length === 1 ? '' : 's'}; there is no [${seg}]` };
      v = item;
    } else if (v !== null && typeof v === 'object') {
      const key = String(seg);
      if (!Object.hasOwn(v, key)) {
        const keys = Object.keys(v);
        return { found: false, message: `${here} has no key "${key}"${keys.length > 0 ? ` (its keys: ${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''})` : ' (it is empty)'}` };
      }
      const next: unknown = Reflect.get(v, key);
      if (next === undefined) return { found: false, message: `${here} has no key "${key}"` };
      v = next;
    } else {
      return { found: false, message: `${here} is ${v === null ? 'null' : `a ${typeof v}`}; it has no "${String(seg)}" inside` };
    }
    at.push(seg);
  }
  return { found: true, value: jsonOf(v) };
}
