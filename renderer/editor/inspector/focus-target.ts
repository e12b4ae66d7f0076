// Turns a problem's JSON path (`$.steps[2].config.url`, `$.edges[1].when`, `$.limits`) into
// what the inspector must show: the element to select, the section to open and the field to
// focus. Pure, so the mapping is tested without a DOM.
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';

export type Segment = string | number;

export type InspectedElement = { type: 'workflow' } | { type: 'step'; id: string } | { type: 'edge'; id: string };

export interface FocusTarget {
  element: InspectedElement;
  /** The section that holds the field, or null when the path names the element itself. */
  section: string | null;
  /**
   * `data-field` values to look for, most precise first: a path into a schema or a header names
   * no field of its own, so the field holding it is the next best (`config.headers`).
   */
  fields: string[];
}

/** Reads a JSON path as `formatPath` writes it: `$`, `.name`, `[3]`, `["any key"]`. Null if malformed. */
export function parseSite(site: string): Segment[] | null {
  if (!site.startsWith('$')) return null;
  const out: Segment[] = [];
  let i = 1;
  while (i < site.length) {
    const rest = site.slice(i);
    const name = /^\.([A-Za-z_$][A-Za-z0-9_$]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (name?.[1] !== undefined) {
      out.push(name[1]);
      i += name[0].length;
    } else if (index?.[1] !== undefined) {
      out.push(Number(index[1]));
      i += index[0].length;
    } else if (quoted?.[1] !== undefined) {
      const key: unknown = JSON.parse(quoted[1]);
      if (typeof key !== 'string') return null;
      out.push(key);
      i += quoted[0].length;
    } else {
      return null;
    }
  }
  return out;
}

/** A path relative to an element, as `data-field` attributes spell it: `config.argv[1]`, `retry.maxAttempts`. */
export function fieldPath(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

const STEP_SECTIONS: Record<string, string> = {
  id: 'basics',
  name: 'basics',
  description: 'basics',
  kind: 'basics',
  config: 'config',
  input: 'data',
  output: 'data',
  accept: 'data',
  handoff: 'data',
  handoffFrom: 'data',
  retry: 'reliability',
  timeoutMs: 'reliability',
  deadlineMs: 'reliability',
  onExhausted: 'reliability',
  revalidate: 'revalidation',
  effect: 'effect',
  idempotencyKey: 'effect',
  onRevise: 'effect',
  compensation: 'advanced',
  resource: 'advanced',
  optional: 'advanced',
};

const WORKFLOW_SECTIONS: Record<string, string> = {
  id: 'basics',
  name: 'basics',
  description: 'basics',
  version: 'basics',
  format: 'basics',
  $schema: 'basics',
  input: 'data',
  output: 'data',
  limits: 'limits',
};

/** The section a field of a step, edge or workflow lives in (edges have one section). */
export function sectionOf(element: InspectedElement['type'], first: string): string | null {
  if (element === 'edge') return 'edge';
  return (element === 'step' ? STEP_SECTIONS : WORKFLOW_SECTIONS)[first] ?? null;
}

function target(element: InspectedElement, rest: readonly Segment[]): FocusTarget {
  const first = rest[0];
  if (typeof first !== 'string') return { element, section: null, fields: [] };
  const fields: string[] = [];
  for (let n = rest.length; n >= 1; n--) fields.push(fieldPath(rest.slice(0, n)));
  return { element, section: sectionOf(element.type, first), fields };
}

/**
 * What the inspector shows for a problem at `site` in `doc`; null when the path is malformed or
 * points at a step or edge the document no longer has.
 *
 * @example
 * focusTarget(doc, '$.steps[2].config.url') // { element: { type: 'step', id: 'fetch' }, section: 'config', fields: ['config.url', 'config'] }
 */
export function focusTarget(doc: Workflow, site: string): FocusTarget | null {
  const segments = parseSite(site);
  if (segments === null) return null;
  const [head, index, ...rest] = segments;
  if ((head === 'steps' || head === 'edges') && typeof index === 'number') {
    const element = head === 'steps' ? doc.steps[index] : doc.edges[index];
    if (element === undefined) return null;
    return target({ type: head === 'steps' ? 'step' : 'edge', id: element.id }, rest);
  }
  // `$.steps` (the list itself), `$.layout...` and the top-level fields belong to the workflow.
  if (head === 'steps' || head === 'edges' || head === 'layout') return { element: { type: 'workflow' }, section: null, fields: [] };
  return target({ type: 'workflow' }, segments);
}
