// The choice of an agent attempt's executor among its step's candidates (docs/routing.md), as one
// pure decision over what the log says (which candidates this activation already tried with too
// low a confidence), the tags the input asks for, and the state of each provider's circuit. The
// same inputs give the same choice; the choice, with why each other candidate was passed over, is
// recorded on the attempt (`attempt_started.data.route`).
import type { AgentCandidate, ChooseRule } from '../../shared/definition/agent-route.ts';
import type { AttemptRoute, CircuitState, ConsideredCandidate, PassedOver } from '../../shared/events/attempt-route.ts';
import type { AttemptRecord } from '../../shared/run/run-model.ts';

export interface RouteFacts {
  candidates: readonly AgentCandidate[];
  choose: ChooseRule | undefined;
  /** The tags `choose.matchTags` gave for this attempt (undefined: the rule has none). */
  wantedTags: readonly string[] | undefined;
  /** The attempts of the step's current activation so far. */
  attempts: readonly AttemptRecord[];
  /** Each candidate's circuit now; `until` is when an open circuit lets a call through. */
  circuit(c: AgentCandidate): { state: CircuitState; failures: number; until: number | null };
}

export interface RouteDecision {
  route: AttemptRoute;
  /** The chosen candidate and which use of it this attempt is (1, 2, ...); undefined when none can run. */
  chosen: { candidate: AgentCandidate; use: number } | undefined;
}

/**
 * Orders the candidates (as listed, or cheapest first; those with a wanted tag before the rest),
 * passes over those already tried with too low a confidence and those whose circuit is open, and
 * chooses the first left.
 *
 * @example
 * chooseRoute({ candidates: [small, large], choose: { order: 'cheapest' }, wantedTags: undefined, attempts: [], circuit: () => closed });
 * // { route: { chosen: 'small', reason: 'small: the cheapest (cost 0.15)', ... }, chosen: { candidate: small, use: 1 } }
 */
export function chooseRoute(f: RouteFacts): RouteDecision {
  const order = f.choose?.order ?? 'listed';
  const ranked = order === 'cheapest' ? [...f.candidates].sort((a, b) => (a.cost ?? Infinity) - (b.cost ?? Infinity)) : [...f.candidates];
  const wanted = f.wantedTags ?? [];
  const matches = (c: AgentCandidate): boolean => (c.tags ?? []).some((t) => wanted.includes(t));
  const anyMatch = wanted.length > 0 && ranked.some(matches);
  const ordered = anyMatch ? [...ranked.filter(matches), ...ranked.filter((c) => !matches(c))] : ranked;
  const low = lowConfidence(f.attempts);
  let chosen: AgentCandidate | undefined;
  const considered: ConsideredCandidate[] = ordered.map((c) => {
    const circuit = f.circuit(c);
    const base = {
      id: c.id,
      provider: c.provider,
      ...(c.model === undefined ? {} : { model: c.model }),
      ...(c.baseUrl === undefined ? {} : { baseUrl: c.baseUrl }),
      ...(c.cost === undefined ? {} : { cost: c.cost }),
      ...(c.tags === undefined ? {} : { tags: [...c.tags] }),
      circuit: circuit.state,
    };
    const tried = low.get(c.id);
    if (tried !== undefined) return passed(base, 'low_confidence', tried);
    if (circuit.state === 'open') return passed(base, 'circuit_open', `its circuit is open after ${circuit.failures} provider failures in a row, until ${iso(circuit.until)}`);
    if (chosen === undefined) {
      chosen = c;
      return base;
    }
    if (anyMatch && !matches(c)) return passed(base, 'tags_unmatched', `none of its tags is wanted (${wanted.join(', ')}); a fallback`);
    return passed(base, 'later', `comes after ${chosen.id}; a fallback`);
  });
  const route: AttemptRoute = {
    candidates: considered,
    chosen: chosen?.id ?? null,
    reason: reasonFor(chosen, considered, { order, wanted, anyMatch }),
    ...(f.wantedTags === undefined ? {} : { wantedTags: [...f.wantedTags] }),
    order,
  };
  if (chosen === undefined) return { route, chosen: undefined };
  const id = chosen.id;
  const uses = f.attempts.filter((a) => a.route?.chosen === id && a.error?.code !== 'interrupted').length;
  return { route, chosen: { candidate: chosen, use: uses + 1 } };
}

/** The candidates this activation tried whose output was not confident enough, with the attempt that said so. */
function lowConfidence(attempts: readonly AttemptRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of attempts) {
    if (a.error?.code !== 'low_confidence' || a.route?.chosen == null) continue;
    out.set(a.route.chosen, `tried in attempt ${a.number}: ${a.error.message}`);
  }
  return out;
}

function passed<T extends object>(base: T, passedOver: PassedOver, why: string): T & { passedOver: PassedOver; why: string } {
  return { ...base, passedOver, why };
}

/** The choice in words: what made the chosen candidate first, and what was passed over before it. */
function reasonFor(chosen: AgentCandidate | undefined, considered: readonly ConsideredCandidate[], o: { order: 'listed' | 'cheapest'; wanted: readonly string[]; anyMatch: boolean }): string {
  const before = considered.filter((c) => c.passedOver === 'low_confidence' || c.passedOver === 'circuit_open');
  const skipped = before.map((c) => `${c.id} (${c.passedOver === 'low_confidence' ? 'confidence too low' : 'circuit open'})`).join(', ');
  if (chosen === undefined) return `no candidate can run: ${skipped}`;
  const why: string[] = [];
  const tags = (chosen.tags ?? []).filter((t) => o.wanted.includes(t));
  if (tags.length > 0) why.push(`its tags match the input (${tags.join(', ')})`);
  else if (o.wanted.length > 0) why.push(o.anyMatch ? 'no candidate with a wanted tag is left' : `no candidate has a wanted tag (${o.wanted.join(', ')})`);
  if (o.order === 'cheapest') why.push(`the cheapest${before.length > 0 ? ' left' : ''}${chosen.cost === undefined ? '' : ` (cost ${chosen.cost})`}`);
  else why.push(before.length > 0 ? 'the next in the listed order' : 'the first in the listed order');
  const own = considered.find((c) => c.id === chosen.id);
  if (own?.circuit === 'half_open') why.push('its circuit is half-open: a trial call after the cool-down');
  const head = before.some((c) => c.passedOver === 'low_confidence') ? 'escalated to ' : '';
  return `${head}${chosen.id}: ${why.join('; ')}${skipped === '' ? '' : `; passed over ${skipped}`}`;
}

const iso = (ms: number | null): string => (ms === null ? 'the cool-down ends' : new Date(ms).toISOString());
