// An attempt's recorded cost as the events table stores it (docs/cost.md, "How it is stored"). The
// engine emits `meta.cost: { amount, currency, basis }` on every attempt end that bills; the row
// leaves out a currency of USD and a basis of `declared`, the usual case, and readEvents and the
// engine's own loads (event-rows.ts) put them back, so every reader sees the event as it was
// emitted. `amount` is always kept, so SQL that sums `$.meta.cost.amount` (admission, day-spend.ts)
// reads old and new rows alike. Each left-out pair was 36 of an attempt event's bytes: with a
// declared cost on every step, 11% more pages of events than a run that bills nothing, which
// checkpoints write out (docs/policies.md, "What it costs the engine").
import { META_EVENTS, type AttemptMeta } from '../../shared/events/attempt-meta.ts';

/** The currency and basis a stored cost may leave out. */
const CURRENCY = 'USD';
const BASIS = 'declared';

type Cost = NonNullable<AttemptMeta['cost']>;
type Data = Record<string, unknown> & { meta: Record<string, unknown> & { cost: Record<string, unknown> } };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The data of an event that carries an attempt's meta with a cost (as emitted or as stored); else undefined. */
function withCost(type: string, data: unknown): Data | undefined {
  if (!META_EVENTS.has(type) || !isObject(data) || !isObject(data['meta']) || !isObject(data['meta']['cost'])) return undefined;
  return data as Data;
}

/** Whether an event's data is stored other than as emitted (its cost without a default currency or basis). */
export function storedShort(type: string, data: unknown): boolean {
  const cost = withCost(type, data)?.meta.cost;
  return cost !== undefined && (cost['currency'] === CURRENCY || cost['basis'] === BASIS);
}

/**
 * The data to store for an event: an attempt end's `meta.cost` without its default currency and
 * basis; anything else as it is (the same object).
 *
 * @example storedCost('attempt_succeeded', { output: 1, meta: { cost: { amount: 0.5, currency: 'USD', basis: 'declared' } } })
 * // { output: 1, meta: { cost: { amount: 0.5 } } }
 */
export function storedCost(type: string, data: unknown): unknown {
  if (!storedShort(type, data)) return data;
  const whole = data as Data;
  const { amount, currency, basis, ...rest } = whole.meta.cost as Cost;
  const kept = { amount, ...(currency === CURRENCY ? {} : { currency }), ...(basis === BASIS ? {} : { basis }), ...rest };
  return { ...whole, meta: { ...whole.meta, cost: kept } };
}

/**
 * A stored event's parsed data with its cost's currency and basis put back (rows written before
 * this form have them and are returned as they are).
 *
 * @example readCost('attempt_succeeded', { meta: { cost: { amount: 0.5 } } }) // { meta: { cost: { amount: 0.5, currency: 'USD', basis: 'declared' } } }
 */
export function readCost(type: string, parsed: unknown): unknown {
  const whole = withCost(type, parsed);
  if (whole === undefined || ('currency' in whole.meta.cost && 'basis' in whole.meta.cost)) return parsed;
  const { amount, currency, basis, ...rest } = whole.meta.cost;
  return { ...whole, meta: { ...whole.meta, cost: { amount, currency: currency ?? CURRENCY, basis: basis ?? BASIS, ...rest } } };
}
