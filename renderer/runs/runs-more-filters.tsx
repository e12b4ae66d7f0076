// The runs list's narrower filters, beside the text and the state: the workflow version, the step
// a failed or stuck run went wrong at ("Failed at"), and the creation time range. Each is a query
// parameter of GET /api/runs (shared/api/run-summary.ts), so "Select all N matching" and the bulk
// actions act on exactly the runs these select (docs/runs.md).
import type { RunsFilter } from '../core/query-keys.ts';

export interface MoreFilters {
  version: string;
  failingStep: string;
  /** Dates as a date input gives them (YYYY-MM-DD), or empty. */
  from: string;
  to: string;
}

export const NO_MORE: MoreFilters = { version: '', failingStep: '', from: '', to: '' };

const DAY_MS = 86_400_000;

/** The query parameters of the fields filled in: a version that is not a positive whole number is left out; `to` includes its whole day. */
export function moreFilter(m: MoreFilters): Pick<RunsFilter, 'version' | 'failingStep' | 'createdAfter' | 'createdBefore'> {
  const version = Number(m.version.trim());
  const step = m.failingStep.trim();
  const to = m.to === '' ? Number.NaN : Date.parse(m.to);
  return {
    ...(m.version.trim() !== '' && Number.isInteger(version) && version > 0 ? { version } : {}),
    ...(step === '' ? {} : { failingStep: step }),
    ...(m.from === '' ? {} : { createdAfter: m.from }),
    ...(Number.isNaN(to) ? {} : { createdBefore: new Date(to + DAY_MS).toISOString().slice(0, 10) }),
  };
}

export function MoreFiltersFields({ value, onChange }: { value: MoreFilters; onChange(next: MoreFilters): void }) {
  const set = (key: keyof MoreFilters) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <>
      <label className="faint runs-filter-date">
        v <input className="input" inputMode="numeric" placeholder="any" aria-label="filter runs by workflow version" value={value.version} onChange={set('version')} style={{ width: 56 }} data-testid="runs-filter-version" />
      </label>
      <label className="faint runs-filter-date">
        failed at <input className="input" placeholder="any step" aria-label="filter runs by the step they failed at" value={value.failingStep} onChange={set('failingStep')} style={{ width: 110 }} data-testid="runs-filter-step" />
      </label>
      <label className="faint runs-filter-date">
        from <input className="input" type="date" aria-label="runs created on or after" value={value.from} onChange={set('from')} data-testid="runs-filter-from" />
      </label>
      <label className="faint runs-filter-date">
        to <input className="input" type="date" aria-label="runs created on or before" value={value.to} onChange={set('to')} data-testid="runs-filter-to" />
      </label>
    </>
  );
}
