// A waiting step's revalidate check as the step detail shows it (docs/long-running.md): the
// verdict (fresh or stale) and what triggered the check (a long wait, an engine restart, a
// migration), when it ran and how long the step had waited, the check itself, what it read again
// first (revalidation-fetched.tsx), each value it read and why it decided so. The engine recorded it as step_revalidated; the restart record keeps the
// latest one on the step.
import { CircleCheck, RefreshCcw, TriangleAlert } from 'lucide-react';
import type { RevalidationView as Revalidation } from '../../../shared/api/restart-record.ts';
import type { RevalidateFetch } from '../../../shared/definition/step-common.ts';
import { formatDuration } from '../../core/format.ts';
import { When } from '../../core/when.tsx';
import { RevalidationFetched } from './revalidation-fetched.tsx';
import './revalidation.css';

/** What brought the check on, in words. */
function triggerText(r: Revalidation): string {
  const waited = r.waitedMs === undefined ? '' : formatDuration(r.waitedMs);
  if (r.trigger === 'wait') return `after a wait of ${waited}`;
  const what = r.trigger === 'restart' ? 'after an engine restart' : 'after the run was migrated';
  return waited === '' ? what : `${what} (waited ${waited})`;
}

/** The values the check read, by path (the engine records them under `inputs.read`). */
function readValues(inputs: unknown): [string, unknown][] {
  if (inputs === null || typeof inputs !== 'object' || !('read' in inputs)) return [];
  const read = (inputs as { read: unknown }).read;
  return read !== null && typeof read === 'object' ? Object.entries(read) : [];
}

const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? 'nothing');

/**
 * The latest revalidate check of a step.
 *
 * `fetch`: the read the definition's check runs first, if any; `runId` and `stepId` open a large answer.
 *
 * @example <RevalidationSection revalidation={step.revalidation} activation={step.activation} runId={runId} stepId={step.id} />
 */
export function RevalidationSection({ revalidation: r, activation, fetch, runId, stepId }: { revalidation: Revalidation; activation: number; fetch?: RevalidateFetch | undefined; runId: string; stepId: string }) {
  const fresh = r.verdict === 'fresh';
  const now = r.inputs !== null && typeof r.inputs === 'object' && 'now' in r.inputs ? (r.inputs as { now: unknown }).now : undefined;
  const read = readValues(r.inputs);
  return (
    <section className="rsd-section rsd-reval" data-testid="step-revalidation" data-verdict={r.verdict} data-trigger={r.trigger}>
      <h4>
        <RefreshCcw size={12} aria-hidden="true" /> Revalidation
      </h4>
      <div className="rsd-reval-card">
        <p className="rsd-reval-head">
          <span className="rsd-reval-verdict" data-verdict={r.verdict} data-testid="revalidation-verdict">
            {fresh ? <CircleCheck size={12} aria-hidden="true" /> : <TriangleAlert size={12} aria-hidden="true" />}
            {fresh ? 'still fresh' : 'stale'}
          </span>
          <span className="rsd-reval-trigger" data-testid="revalidation-trigger">
            {triggerText(r)}
          </span>
        </p>
        <dl className="kv rsd-reval-kv">
          <dt>checked</dt>
          <dd>
            <When at={Date.parse(r.at)} testId="revalidation-at" />
            {r.activation !== activation ? <span className="faint"> · in pass {r.activation}, an earlier pass</span> : r.activation > 1 ? <span className="faint"> · pass {r.activation}</span> : null}
          </dd>
          <dt>check</dt>
          <dd>
            <code className="rsd-reval-check mono" data-testid="revalidation-check">
              {r.check}
            </code>
          </dd>
          {typeof now === 'string' ? (
            <>
              <dt>now</dt>
              <dd className="mono">{now}</dd>
            </>
          ) : null}
        </dl>
        <RevalidationFetched inputs={r.inputs} fetch={fetch} runId={runId} stepId={stepId} />
        {read.length > 0 ? (
          <ul className="rsd-reval-reads" aria-label="values the check read">
            {read.map(([path, value]) => (
              <li key={path} className="rsd-reval-read" data-testid="revalidation-read" data-path={path}>
                <span className="mono rsd-reval-path">{path}</span>
                <span className="mono rsd-reval-value">{valueText(value)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p className="rsd-reval-why" data-testid="revalidation-why">
          {r.why}
        </p>
      </div>
    </section>
  );
}
