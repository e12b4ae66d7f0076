// What a run cost (docs/cost.md), on the run page: a chip in the run's head with the total, a
// table per step in the Run tab, and a step's line in its detail. All read RunDetail's `cost`
// (shared/cost/run-cost.ts), the same sums `weft inspect` prints.
import { Coins } from 'lucide-react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { formatCost, stepAmountText, unpricedText, type RunCost, type StepCost } from '../../../shared/cost/run-cost.ts';
import type { AttemptMeta } from '../../../shared/events/attempt-meta.ts';
import './run-cost.css';

const count = (n: number): string => n.toLocaleString('en');
const billed = (cost: RunCost): boolean => Object.keys(cost.steps).length > 0;

/**
 * The run's total beside the run panel's tabs (the run's head is full: it stays on one line); its
 * title gives the tokens, and a click opens the Run tab's table.
 */
export function RunCostChip({ cost, onOpen }: { cost: RunCost; onOpen(): void }) {
  if (!billed(cost)) return null;
  const title = [`${count(cost.inputTokens)} input tokens, ${count(cost.outputTokens)} output tokens`, ...(cost.unpriced > 0 ? [`${unpricedText(cost.unpriced)} in weft.prices.json`] : [])].join('; ');
  return (
    <button type="button" className="run-cost-chip" data-testid="run-cost" data-unpriced={cost.unpriced > 0 || undefined} title={`what the run cost: ${title}`} onClick={onOpen}>
      <Coins size={12} aria-hidden="true" />
      <span className="run-cost-label">run cost</span>
      <span className="cost-amount">{formatCost(cost.total, cost.currency)}</span>
      {cost.unpriced > 0 ? <span aria-label={unpricedText(cost.unpriced)}>*</span> : null}
    </button>
  );
}

/** The Run tab's cost: each step that billed or used tokens, and the run's total. */
export function RunCostSection({ detail, onSelect }: { detail: RunDetail; onSelect(selection: { stepId: string; attemptId: null }): void }) {
  const { cost } = detail;
  if (!billed(cost)) return null;
  const rows = detail.steps.flatMap((s) => {
    const c = cost.steps[s.id];
    return c === undefined ? [] : [{ id: s.id, c }];
  });
  return (
    <section className="panel-section" data-testid="run-cost-section">
      <h3>Cost</h3>
      <table className="cost-table" aria-label="what each step cost">
        <thead>
          <tr>
            <th scope="col">step</th>
            <th scope="col">attempts</th>
            <th scope="col">tokens in / out</th>
            <th scope="col">cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ id, c }) => (
            <tr key={id} data-testid={`cost-row-${id}`}>
              <td>
                <button type="button" className="link-button mono" onClick={() => onSelect({ stepId: id, attemptId: null })}>
                  {id}
                </button>
              </td>
              <td>{count(c.attempts)}</td>
              <td>{tokensText(c)}</td>
              <td className="cost-amount" data-unpriced={c.unpriced > 0 || undefined}>
                {stepAmountText(c, cost.currency)}
                {c.unpriced > 0 && c.unpriced < c.attempts ? <span className="faint" title={unpricedText(c.unpriced)}> *</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">run</th>
            <td />
            <td>{tokensText(cost)}</td>
            <td className="cost-amount" data-testid="run-cost-total">
              {formatCost(cost.total, cost.currency)}
            </td>
          </tr>
        </tfoot>
      </table>
      {cost.unpriced > 0 ? (
        <p className="cost-note" data-testid="run-cost-unpriced">
          * {unpricedText(cost.unpriced)}: {cost.unpriced === 1 ? 'its tokens are counted, its cost is not. Add its model' : 'their tokens are counted, their cost is not. Add their models'} to weft.prices.json.
        </p>
      ) : null}
    </section>
  );
}

/** A step's cost in its detail: total, tokens, and how many attempts billed. */
export function StepCostLine({ cost, currency }: { cost: StepCost | undefined; currency: string }) {
  if (cost === undefined) return null;
  return (
    <p className="rsd-cost" data-testid="step-cost">
      <Coins size={12} aria-hidden="true" />
      <span className="cost-amount">{stepAmountText(cost, currency)}</span>
      <span className="muted">
        {cost.inputTokens > 0 || cost.outputTokens > 0 ? ` · ${tokensText(cost)} tokens` : ''} · {count(cost.attempts)} attempt{cost.attempts === 1 ? '' : 's'}
        {cost.unpriced > 0 ? ` · ${unpricedText(cost.unpriced)}` : ''}
      </span>
    </p>
  );
}

/** An attempt's cost, as its attempt tab shows it; empty when it billed nothing. */
export function attemptCostText(meta: AttemptMeta | null): string {
  return meta?.cost === undefined ? '' : formatCost(meta.cost.amount, meta.cost.currency);
}

/** How an attempt's cost was fixed, in words, for its detail. */
export const COST_BASIS: Record<NonNullable<AttemptMeta['cost']>['basis'], string> = {
  tokens: 'its tokens at the price table’s prices',
  declared: 'the step’s declared cost per call',
  scripted: 'given by the scenario’s script',
};

function tokensText(c: { inputTokens: number; outputTokens: number }): string {
  return c.inputTokens === 0 && c.outputTokens === 0 ? '—' : `${count(c.inputTokens)} / ${count(c.outputTokens)}`;
}
