// The read a revalidate check ran first (`revalidate.fetch`, docs/long-running.md), in the step
// detail's Revalidation panel: what was read (the definition's request, when it is an http read),
// whether it answered and how fast, and its answer (`$fetched` in the check) or its error.
import { Download } from 'lucide-react';
import type { RevalidateFetch } from '../../../shared/definition/step-common.ts';
import type { JsonValue } from '../../../shared/api/json-value.ts';
import { fetchedIn } from '../../../shared/run/revalidation-fetched.ts';
import { formatDuration } from '../../core/format.ts';
import { ValueView } from './value-view.tsx';

/** What the definition says the check reads: `GET url` for http, the command line, or the script module. */
function requestText(fetch: RevalidateFetch): string {
  if (fetch.kind === 'http') return `${fetch.config.method} ${fetch.config.url}`;
  if (fetch.kind === 'command') return fetch.config.argv.join(' ');
  return `${fetch.config.module}${fetch.config.export === undefined ? '' : ` · ${fetch.config.export}`}`;
}

const statusOf = (output: unknown): number | undefined =>
  output !== null && typeof output === 'object' && 'status' in output && typeof output.status === 'number' ? output.status : undefined;

/**
 * The read of a check, when it made one; nothing for a check that only evaluates.
 *
 * @example <RevalidationFetched inputs={r.inputs} fetch={defStep.revalidate?.fetch} runId={runId} stepId="approve" />
 */
export function RevalidationFetched({ inputs, fetch, runId, stepId }: { inputs: unknown; fetch: RevalidateFetch | undefined; runId: string; stepId: string }) {
  const f = fetchedIn(inputs);
  if (f === undefined) return null;
  const status = f.kind === 'http' ? statusOf(f.output) : undefined;
  return (
    <div className="rsd-reval-fetch" data-testid="revalidation-fetched" data-ok={f.ok}>
      <p className="rsd-reval-fetch-head">
        <Download size={12} aria-hidden="true" />
        <span className="rsd-reval-fetch-title">Read again first</span>
        <span className="rsd-reval-fetch-kind mono">{f.kind}</span>
        {fetch !== undefined ? (
          <code className="rsd-reval-fetch-request mono" title="what the check reads, as the definition says">
            {requestText(fetch)}
          </code>
        ) : null}
      </p>
      <p className="rsd-reval-fetch-result" data-testid="revalidation-fetched-result">
        <span className="rsd-reval-fetch-verdict" data-ok={f.ok}>
          {f.ok ? (status === undefined ? 'answered' : `answered ${status}`) : 'failed'}
        </span>
        <span className="faint">in {formatDuration(f.durationMs)}</span>
        {!f.ok && f.error !== undefined ? (
          <span className="rsd-reval-fetch-error">
            <span className="mono">{f.error.code}</span> {f.error.message}
          </span>
        ) : null}
      </p>
      {f.ok && f.output !== undefined ? (
        <ValueView value={f.output as JsonValue} runId={runId} valuePath={`steps.${stepId}.revalidation.inputs.fetched.output`} label="what the check read again ($fetched)" testId="revalidation-fetched-output" />
      ) : null}
    </div>
  );
}
