// The Providers strip of the runs page: the circuit of each provider that agent candidates have
// called (docs/routing.md "Circuits"): closed, open (passed over until the cool-down ends) or
// half-open (the next call is a trial), its failures in a row and when an open one lets a call
// through again. Shown only once the engine has seen a candidate; nothing otherwise.
import { Zap } from 'lucide-react';
import type { CircuitView } from '../../shared/api/provider-circuits.ts';
import { formatDuration } from '../core/format.ts';
import { useProviderCircuits } from '../core/provider-queries.ts';
import { When } from '../core/when.tsx';
import './providers.css';

const STATE_WORD: Record<CircuitView['state'], string> = { closed: 'closed', open: 'open', half_open: 'half-open' };

export function ProvidersPanel() {
  const circuits = useProviderCircuits().data?.circuits ?? [];
  if (circuits.length === 0) return null;
  const open = circuits.filter((c) => c.state === 'open').length;
  const trial = circuits.filter((c) => c.state === 'half_open').length;
  const summary = open + trial === 0 ? 'every circuit closed' : [open > 0 ? `${open} open` : '', trial > 0 ? `${trial} half-open` : ''].filter((x) => x !== '').join(' · ');
  return (
    <section className="providers-panel" aria-label="provider circuits" data-testid="providers-panel">
      <div className="providers-head">
        <Zap size={13} aria-hidden="true" />
        <h2>Providers</h2>
        <span className="faint">{summary}</span>
      </div>
      <ul className="providers-list">
        {circuits.map((c) => (
          <li key={c.key} className="provider-card" data-testid="provider-circuit" data-key={c.key} data-state={c.state}>
            <div className="provider-line">
              <span className="provider-name">{c.provider}</span>
              <span className="provider-where mono faint" title={c.key}>
                {whereOf(c)}
              </span>
              <span className="provider-state" data-circuit={c.state}>
                {STATE_WORD[c.state]}
              </span>
            </div>
            <div className="provider-facts">{factsOf(c)}</div>
            <div className="provider-facts faint">{c.rule === null ? 'no step gives it a circuit rule' : `opens after ${plural(c.rule.failures, 'failure')} · cool-down ${formatDuration(c.rule.coolDownMs)}`}</div>
            {c.state === 'open' && c.reopensAtMs !== null ? (
              <div className="provider-facts faint" data-testid="provider-reopens">
                trial call from <When at={c.reopensAtMs} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The server's host, or the mock provider's model. */
function whereOf(c: CircuitView): string {
  if (c.baseUrl === null) return c.key.replace(/^mock model /, '');
  try {
    return new URL(c.baseUrl).host;
  } catch {
    return c.baseUrl;
  }
}

function factsOf(c: CircuitView): string {
  const failures = c.failures === 0 ? 'no failures since its last reply' : `${plural(c.failures, 'failure')} in a row`;
  return c.opened === 0 ? failures : `${failures} · opened ${c.opened}×`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
