// The Revalidation section of a step's form (docs/long-running.md, "Revalidation on resume"): the
// check a waiting step (human, event, wait) runs when it resumes (it reads the step's own new
// `output` too), with the wait that triggers it and what it guards; added and removed here. A `fetch` (a read the check runs first) has no
// form: it is shown as it is, read-only, and kept untouched by every edit of the other fields.
import { useContext, useMemo, useState } from 'react';
import { AlertTriangle, CircleAlert, Plus, Trash2 } from 'lucide-react';
import type { Step } from '../../../shared/definition/workflow-schema.ts';
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { waitsOnTheWorld } from '../../../shared/definition/step-kinds.ts';
import { useValidation } from '../validation/validation-store.ts';
import type { FieldContext } from './auto-field.tsx';
import { CodeInput } from './code-input.tsx';
import { exactDuration } from './duration.ts';
import { ElementSite } from './field-diagnostics.ts';
import { REVALIDATE_FIELDS } from './field-specs.ts';
import { schemaFields } from './scope.ts';
import { Section } from './section.tsx';
import { useInspectorUi } from './inspector-ui-store.ts';
import { StepFields } from './step-fields.tsx';
import './revalidation.css';

const NONE: readonly Diagnostic[] = [];

/** Findings about `revalidate` as a whole (not one of its fields): a kind that never resumes, a `stale` nobody follows. */
function useSectionFindings(): readonly Diagnostic[] {
  const prefix = useContext(ElementSite);
  const diagnostics = useValidation((s) => s.diagnostics);
  return useMemo(() => {
    if (prefix === null || prefix === '$') return NONE;
    const found = diagnostics.filter((d) => d.path === `${prefix}.revalidate`);
    return found.length === 0 ? NONE : found;
  }, [prefix, diagnostics]);
}

/** The collapsed section's one line: when the check runs. */
function summaryOf(step: Step): string {
  if (step.revalidate === undefined) return 'none';
  const after = step.revalidate.afterMs;
  return after === undefined || after === 0 ? 'after every wait' : `after ${exactDuration(after)}`;
}

/** The declared `revalidate.fetch`, whatever its shape; undefined when there is none. */
function fetchOf(step: Step): unknown {
  if (step.revalidate === undefined) return undefined;
  const declared: Record<string, unknown> = { ...step.revalidate };
  return declared['fetch'];
}

function Findings({ found }: { found: readonly Diagnostic[] }) {
  if (found.length === 0) return null;
  return (
    <ul className="reval-findings" data-field="revalidate">
      {found.map((d) => (
        <li key={`${d.code}:${d.message}`} className="reval-finding" data-severity={d.severity} data-testid={`revalidate-finding-${d.code}`}>
          {d.severity === 'error' ? <CircleAlert size={14} aria-hidden="true" /> : <AlertTriangle size={14} aria-hidden="true" />}
          <span>
            <span className="reval-finding-message">{d.message}</span>
            <span className="reval-finding-hint">{d.hint}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function FetchView({ fetch }: { fetch: unknown }) {
  return (
    <div className="ins-field" data-field="revalidate.fetch">
      <span className="ins-label">Fetch first</span>
      <div className="ins-control">
        <CodeInput value={JSON.stringify(fetch, null, 2)} onChange={() => undefined} mode="json" label="Fetch first (read-only)" testId="field-revalidate.fetch" multiline readOnly />
      </div>
      <div className="ins-hint">the read the check runs first; its result is $fetched. Kept as it is: edit it in the JSON view</div>
    </div>
  );
}

export function RevalidationSection({ step, ctx }: { step: Step; ctx: FieldContext }) {
  const [adding, setAdding] = useState(false);
  const found = useSectionFindings();
  const declared = step.revalidate !== undefined;
  if (!declared && !waitsOnTheWorld(step.kind)) return null;
  const fetch = fetchOf(step);
  // Until a check is written there is no `revalidate` to hold the wait and the description.
  const specs = declared ? REVALIDATE_FIELDS : REVALIDATE_FIELDS.filter((f) => f.path === 'revalidate.check');
  const remove = (): void => {
    setAdding(false);
    if (declared) ctx.commit('revalidate', undefined);
  };
  return (
    <Section scope="step" id="revalidation" title="Revalidation" summary={summaryOf(step)}>
      <Findings found={found} />
      {declared || adding ? (
        <>
          <StepFields specs={specs} step={step} ctx={{ ...ctx, scope: { ...ctx.scope, output: schemaFields(step.output) } }} />
          {declared ? null : <p className="ins-hint reval-then">Once the check is written: the wait that triggers it, and what it guards.</p>}
          {fetch === undefined ? null : <FetchView fetch={fetch} />}
          <button type="button" className="ins-add reval-remove" onClick={remove} data-testid="revalidate-remove">
            <Trash2 size={12} aria-hidden="true" />
            Remove the check
          </button>
        </>
      ) : (
        <div className="reval-empty">
          <p className="ins-empty">
            No check. When this step resumes after a long wait, a restart or a migration, a check can confirm that what it decided on still holds; when it does not, the step settles{' '}
            <span className="mono">stale</span>, an outcome an edge can follow.
          </p>
          <button type="button" className="ins-add" onClick={() => {
              setAdding(true);
              useInspectorUi.getState().focusLater(['revalidate.check']);
            }} data-testid="revalidate-add">
            <Plus size={12} aria-hidden="true" />
            Add a check
          </button>
        </div>
      )}
    </Section>
  );
}
