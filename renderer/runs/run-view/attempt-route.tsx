// Which executor an agent attempt ran on, and why (docs/routing.md): the route its start recorded,
// as a short list in the order the candidates were considered: each with its provider, model,
// cost and tags, the one chosen marked, every other one with why it was passed over (its circuit
// was open, it was already tried and not confident enough, its tags do not match, or it is a
// fallback after the chosen one), and the reason in words above.
import { CircleCheck, CircleSlash, Route, Tag, Zap } from 'lucide-react';
import type { AttemptRoute, ConsideredCandidate, PassedOver } from '../../../shared/events/attempt-route.ts';
import { TimesInText } from '../../core/when.tsx';
import './attempt-route.css';

/** What a reason code says, in two words, on its chip. */
const PASSED_OVER_LABEL: Record<PassedOver, string> = {
  circuit_open: 'circuit open',
  low_confidence: 'not confident',
  tags_unmatched: 'tags differ',
  later: 'fallback',
};

/**
 * The route of one attempt.
 *
 * @example <AttemptRouteView route={attempt.route} />
 */
export function AttemptRouteView({ route }: { route: AttemptRoute }) {
  return (
    <section className="rsd-section rsd-route" data-testid="attempt-route" data-chosen={route.chosen ?? ''}>
      <h4>
        <Route size={12} aria-hidden="true" /> Executor
      </h4>
      <p className="rsd-route-reason" data-testid="route-reason">
        {route.chosen === null ? (
          <span className="rsd-route-none">No candidate could run.</span>
        ) : (
          <>
            Ran on <span className="rsd-route-chosen mono">{route.chosen}</span>
          </>
        )}
        <span className="muted"> · {reasonText(route)}</span>
      </p>
      <ol className="rsd-route-list" aria-label="candidates considered, in order">
        {route.candidates.map((c, i) => (
          <CandidateRow key={c.id} candidate={c} rank={i + 1} chosen={c.id === route.chosen} wanted={route.wantedTags ?? []} />
        ))}
      </ol>
      <p className="rsd-route-foot faint">
        {route.order === 'cheapest' ? 'cheapest first' : 'in the listed order'}
        {route.wantedTags !== undefined ? ` · the input asks for ${route.wantedTags.length === 0 ? 'no tag' : route.wantedTags.join(', ')}` : ''}
      </p>
    </section>
  );
}

function CandidateRow({ candidate: c, rank, chosen, wanted }: { candidate: ConsideredCandidate; rank: number; chosen: boolean; wanted: readonly string[] }) {
  return (
    <li className="rsd-route-row" data-testid="route-candidate" data-candidate={c.id} data-status={chosen ? 'chosen' : (c.passedOver ?? '')} title={c.why}>
      <span className="rsd-route-rank" aria-hidden="true">
        {rank}
      </span>
      <div className="rsd-route-main">
        <div className="rsd-route-line">
          <span className="rsd-route-id mono">{c.id}</span>
          <span className="rsd-route-model faint">
            {c.provider}
            {c.model !== undefined ? ` · ${c.model}` : ''}
            {c.cost !== undefined ? ` · cost ${c.cost}` : ''}
          </span>
        </div>
        {(c.tags ?? []).length > 0 || c.circuit !== 'closed' ? (
          <div className="rsd-route-line">
            {(c.tags ?? []).map((t) => (
              <span key={t} className="rsd-route-tag" data-wanted={wanted.includes(t)}>
                <Tag size={10} aria-hidden="true" />
                {t}
              </span>
            ))}
            {c.circuit !== 'closed' ? (
              <span className="rsd-route-circuit" data-circuit={c.circuit}>
                <Zap size={10} aria-hidden="true" />
                circuit {c.circuit.replace('_', '-')}
              </span>
            ) : null}
          </div>
        ) : null}
        {!chosen && c.why !== undefined && c.passedOver !== 'later' ? (
          <div className="rsd-route-why muted">
            <TimesInText text={c.why} />
          </div>
        ) : null}
      </div>
      {chosen ? (
        <span className="rsd-route-status" data-status="chosen">
          <CircleCheck size={12} aria-hidden="true" /> chosen
        </span>
      ) : c.passedOver !== undefined ? (
        <span className="rsd-route-status" data-status={c.passedOver}>
          {c.passedOver === 'later' ? null : <CircleSlash size={12} aria-hidden="true" />}
          {PASSED_OVER_LABEL[c.passedOver]}
        </span>
      ) : null}
    </li>
  );
}

/** The recorded reason without the chosen id it starts with (it is said just before). */
function reasonText(route: AttemptRoute): string {
  const r = route.reason;
  const lead = route.chosen === null ? 'no candidate can run: ' : null;
  if (lead !== null && r.startsWith(lead)) return `passed over ${r.slice(lead.length)}`;
  const escalated = `escalated to ${route.chosen ?? ''}: `;
  if (r.startsWith(escalated)) return `escalated: ${r.slice(escalated.length)}`;
  const own = `${route.chosen ?? ''}: `;
  return r.startsWith(own) ? r.slice(own.length) : r;
}
