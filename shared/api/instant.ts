// A time a filter compares run creation with (the runs list's, a bulk action's): an ISO date-time
// (with Z or an offset) or a date, so the same text works in a query string, a flag and a body.
import { z } from 'zod';

/**
 * An ISO date or date-time, such as 2026-12-02 or 2026-12-02T14:00:00Z.
 *
 * @example
 * Instant.parse('2026-12-02'); // '2026-12-02'
 */
export const Instant = z
  .string()
  .max(40, 'a time is at most 40 characters')
  .refine((t) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t) && !Number.isNaN(Date.parse(t)), 'give a time as an ISO date or date-time, such as 2026-12-02 or 2026-12-02T14:00:00Z');
