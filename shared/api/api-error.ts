// The one error body of the API, `{"error": {"code", "message", "path"?}}`, its codes with their
// HTTP statuses, and the turning of a zod failure into one: the first issue, said in one line
// with where it is (a JSON path like those of the validator's diagnostics) and how to fix it.
import { z } from 'zod';
import { formatPath } from '../validator/diagnostic.ts';

/** Every error code of the API. */
export const API_ERROR_CODES = ['bad-input', 'unauthorized', 'forbidden', 'not-found', 'not-allowed', 'refused', 'too-large', 'misdirected', 'upgrade-required', 'internal'] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The HTTP status each code comes with (409 is an action the run's state refuses). */
export const API_ERROR_STATUS: Readonly<Record<ApiErrorCode, number>> = {
  'bad-input': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'not-allowed': 405,
  refused: 409,
  'too-large': 413,
  misdirected: 421,
  /** A plain request to a WebSocket endpoint (`/api/stream`). */
  'upgrade-required': 426,
  internal: 500,
};

/**
 * The body of every error answer.
 *
 * @example
 * ApiErrorBody.parse({ error: { code: 'bad-input', message: '$.to: must not be empty or only spaces', path: '$.to' } });
 */
export const ApiErrorBody = z.strictObject({
  error: z.strictObject({
    code: z.enum(API_ERROR_CODES),
    /** One line: what is wrong, where, and how to fix it. */
    message: z.string().min(1),
    /** A JSON path into the request body or query, such as `$.steps[2].input`. */
    path: z.string().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/**
 * The error body for a request that failed its schema: the first issue, with its path. An
 * unknown key is reported at that key's path.
 *
 * @example
 * const r = TaskAction.safeParse(body);
 * if (!r.success) return { status: 400, body: badInput(r.error, 'the request body') };
 */
export function badInput(error: z.ZodError, what: string): ApiErrorBody {
  const issue = error.issues[0];
  if (issue === undefined) return { error: { code: 'bad-input', message: `${what} is not valid` } };
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const path = formatPath(unknownKey === undefined ? issue.path : [...issue.path, unknownKey]);
  return { error: { code: 'bad-input', message: `${what}: ${path}: ${describe(issue)}`, path } };
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove ${issue.keys.length === 1 ? 'it' : 'them'} (see docs/api.md for the fields each request takes)`;
  // Zod 4 leaves `input` out of its issues, so a value that is there but of the wrong type (a
  // query's `before=abc`) is told apart from a missing one by zod's own message.
  if (issue.code === 'invalid_type' && issue.input === undefined && !wrongType(issue)) return `is required (expected ${issue.expected})`;
  return issue.message;
}

/** A value of the wrong type (zod's message says what it got, or a coercion got NaN), not a missing one. */
function wrongType(issue: z.core.$ZodIssueInvalidType): boolean {
  return /received (?!undefined$)\w+$/.test(issue.message) || ('received' in issue && issue.received !== 'undefined');
}
