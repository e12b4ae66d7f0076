// The sizes and page limits of the read API (the run detail's stubs, value pages, attempt pages,
// the stats report's run list) as plain constants, apart from the zod schemas that use them
// (elided-value.ts, run-value.ts, step-attempts.ts, workflow-stats.ts re-export them). The engine's
// readers need the numbers only: importing a schema module for one built all its schemas, which
// every `weft` command that opens a store paid at start (issue 20, step 9).

/** RunDetail values over this many bytes of JSON (UTF-8) are sent as an ElidedValue. */
export const DETAIL_VALUE_LIMIT = 64 * 1024;

/** How many characters of the value's JSON text a stub's preview holds. */
export const PREVIEW_CHARS = 200;

/** What kind of JSON value was left out. */
export const ELIDED_KINDS = ['object', 'array', 'string', 'number', 'boolean', 'null'] as const;
export type ElidedKind = (typeof ELIDED_KINDS)[number];

/** Most entries a page of a large array or object may ask for. */
export const MAX_VALUE_PAGE = 5000;

/** Deepest level a `depth` may ask for (a value is at most 64 levels deep). */
export const MAX_VALUE_DEPTH = 64;

/** Children nested deeper than a `depth` asks for come whole while their JSON is at most this. */
export const INLINE_CHILD_BYTES = 1024;

/** How many of a step's latest attempts `GET /api/runs/:id` carries; the step's older ones are paged. */
export const DETAIL_ATTEMPTS = 20;

/** The largest page of attempts a client may ask for, and the page it gets without `limit`. */
export const MAX_ATTEMPT_PAGE = 200;
export const DEFAULT_ATTEMPT_PAGE = 50;

/** How many of the newest runs GET /api/stats lists when `?runs=` is not given. */
export const STATS_RUNS = 200;
