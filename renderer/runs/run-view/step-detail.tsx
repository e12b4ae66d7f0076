// The selected step of a run, for one attempt: its resolved input, output or error; the evidence
// it left and what that evidence covers; its idempotency key and retry variant; for agents the
// provider, model, tokens and latency, and the candidate it ran on and why; where each input field came from (links that select the
// upstream step and attempt); and what may happen next and why. A step no longer on the run's path
// (passed over, superseded) says so with its reason; evidence whose effect a compensation undid
// says which step undid it. A waiting step's latest revalidate check shows its evidence (revalidation-view.tsx). The detail carries a step's latest attempts only; its older ones are
// read on demand ("N older attempts", older-attempts.ts).
import { memo, useMemo, useState, type ReactNode } from 'react';
import { ArrowUpRight, CircleAlert, KeyRound, Layers, ShieldCheck } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { AttemptDetail, RunDetail, StepDetail as StepDetailData } from '../../../shared/api/run-detail.ts';
import { formatDuration } from '../../core/format.ts';
import { TimesInText, When } from '../../core/when.tsx';
import { KindIcon } from '../../graph/kind-icon.tsx';
import { AttemptError } from './attempt-error.tsx';
import { AttemptPartial } from './attempt-partial.tsx';
import { attemptCostText, COST_BASIS, StepCostLine } from './run-cost-view.tsx';
import { AttemptRouteView } from './attempt-route.tsx';
import { itemFailures, itemFailuresText, type ItemFailures } from './item-failures.ts';
import { useRoute } from '../../core/route-store.ts';
import { handoffsOf, provenanceOf, type ProvenanceEntry } from './provenance.ts';
import { ValueView } from './value-view.tsx';
import { PathNote } from './path-note.tsx';
import { pathMark } from '../../graph/path-mark.ts';
import { useOlderAttempts } from '../../core/run-queries.ts';
import { messageOf } from '../../core/query-client.ts';
import { attemptList, detailFirstPlace } from './older-attempts.ts';
import { pausedStepNext } from '../actions/debug-words.ts';
import { RevalidationSection } from './revalidation-view.tsx';
import { HandoffCards } from './handoff-card.tsx';

export interface RunSelection {
  stepId: string;
  /** An attempt id (`step/activation.number`); null for the step's latest. */
  attemptId: string | null;
}

interface Props {
  detail: RunDetail;
  definition: Workflow;
  selection: RunSelection;
  onSelect(selection: RunSelection): void;
  /** The action buttons for this step (the run page supplies them). */
  actions?: ReactNode;
  /** The step's notes and their "Add note", after what the step did. */
  notes?: ReactNode;
}

function StepDetailView({ detail, definition, selection, onSelect, actions, notes }: Props) {
  const step = detail.steps.find((s) => s.id === selection.stepId);
  const handoffs = useMemo(() => handoffsOf(definition, selection.stepId), [definition, selection.stepId]);
  const provenance = useMemo(() => provenanceOf(definition, handoffs, detail, selection.stepId), [definition, handoffs, detail, selection.stepId]);
  const kind = definition.steps.find((s) => s.id === selection.stepId)?.kind;
  const items = useMemo(() => (kind === 'map' ? itemFailures(detail.children)[selection.stepId] : undefined), [kind, detail.children, selection.stepId]);
  // Where the older attempts were asked for from (the detail's first place then), for this step.
  const [asked, setAsked] = useState<{ stepId: string; anchor: number } | null>(null);
  const anchor = asked !== null && asked.stepId === selection.stepId ? asked.anchor : null;
  const older = useOlderAttempts(detail.run.id, selection.stepId, anchor);
  const list = useMemo(() => (step === undefined ? undefined : attemptList(step, older.data?.pages, anchor)), [step, older.data, anchor]);
  if (step === undefined || list === undefined) return <p className="muted run-detail-empty">Step {selection.stepId} is not in this run.</p>;
  const attempts = list.attempts;
  const attempt = attempts.find((a) => a.id === selection.attemptId) ?? attempts.at(-1);
  const readOlder = (): void => {
    const from = detailFirstPlace(step);
    if (anchor !== from) setAsked({ stepId: step.id, anchor: from });
    else void older.fetchNextPage();
  };
  const mark = pathMark(step);
  return (
    <div className="run-step-detail" data-testid="step-detail" data-step={step.id}>
      <header className="rsd-head">
        {kind !== undefined ? <KindIcon kind={kind} size={16} /> : null}
        <span className="rsd-id mono">{step.id}</span>
        <span className="state" data-state={step.state}>
          {step.state.replace('_', ' ')}
        </span>
        {mark !== null ? (
          <span className="path-chip" data-path={mark.kind} title={mark.title}>
            {mark.label}
          </span>
        ) : null}
        {step.escalated ? (
          <span className="rsd-flag" title="waits for a person: an escalation or an unknown outcome to resolve">
            <CircleAlert size={12} aria-hidden="true" /> needs a person
          </span>
        ) : null}
      </header>
      <PathNote step={step} isEnd={kind === 'end'} />
      {/* A passed-over step's next is its note's story: said once. */}
      {mark?.kind === 'passed-over' ? null : (
        <p className="rsd-next" data-testid="step-next">
          <TimesInText text={pausedStepNext(detail.run.debug, step.id, 'whole') ?? step.next} />
        </p>
      )}
      <StepCostLine cost={detail.cost.steps[step.id]} currency={detail.cost.currency} />
      {items !== undefined ? <FailedItems items={items} /> : null}
      {actions}
      {list.hidden > 0 ? (
        <div className="rsd-older">
          <button type="button" className="link-button" data-testid="older-attempts" disabled={older.isFetching} onClick={readOlder} title="the run's detail carries a step's latest attempts; read the ones before them">
            {older.isFetching ? 'reading older attempts…' : `${list.hidden.toLocaleString('en')} older attempt${list.hidden === 1 ? '' : 's'}`}
          </button>
          {older.error !== null ? (
            <span className="rsd-older-error" role="alert" data-testid="older-attempts-error">
              {messageOf(older.error)}
            </span>
          ) : null}
        </div>
      ) : null}
      {attempts.length > 1 ? (
        <div className="rsd-attempts" role="tablist" aria-label="attempts">
          {attempts.map((a) => (
            <button
              key={a.id}
              type="button"
              role="tab"
              aria-selected={a.id === attempt?.id}
              className="rsd-attempt-tab"
              data-state={a.state}
              data-testid={`attempt-tab-${a.id}`}
              onClick={() => onSelect({ stepId: step.id, attemptId: a.id })}
            >
              {a.activation > 1 ? `pass ${a.activation} · ` : ''}#{a.number}
              {a.meta?.cost !== undefined ? <span className="rsd-attempt-cost"> · {attemptCostText(a.meta)}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
      {step.revalidation !== undefined ? <RevalidationSection revalidation={step.revalidation} activation={step.activation} fetch={definition.steps.find((s) => s.id === step.id)?.revalidate?.fetch} runId={detail.run.id} stepId={step.id} /> : null}
      <HandoffCards definition={definition} stepId={step.id} attempt={attempt} onSelect={onSelect} />
      {attempt === undefined ? <p className="muted">{step.outcome === null ? 'No attempt yet.' : 'No attempt was made.'}</p> : <AttemptSection step={step} attempt={attempt} place={list.firstPlace + attempts.indexOf(attempt)} runId={detail.run.id} />}
      <Provenance entries={provenance} onSelect={onSelect} />
      {notes}
      {step.permittedActions.length > 0 ? (
        <section className="rsd-section">
          <h4>May be done now</h4>
          <ul className="rsd-permitted">
            {step.permittedActions.map((p) => (
              <li key={p.action}>
                <span className="permitted-chip">{p.action}</span>{' '}
                <span className="muted">
                  <TimesInText text={p.why} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function AttemptSection({ step, attempt, place, runId }: { step: StepDetailData; attempt: AttemptDetail; place: number; runId: string }) {
  // The value path the server knows the attempt by: its place in the step's whole attempt list.
  const base = `steps.${step.id}.attempts[${place}]`;
  // The step's evidence is the one a compensation offsets (the restart record says by which step).
  const offsetBy = step.evidence !== null && step.evidence.id === attempt.evidence?.id ? step.evidence.offsetBy : undefined;
  // The attempt after a partial one continues from it (shared/run/partial-so-far.ts).
  const continuedBy = step.attempts[step.attempts.findIndex((a) => a.id === attempt.id) + 1]?.id ?? null;
  return (
    <>
      <section className="rsd-section" data-testid="attempt-detail" data-attempt={attempt.id}>
        <h4>
          Attempt <span className="mono">{attempt.id}</span>
          {attempt.pinned === true ? (
            <span className="debug-badge" data-testid="attempt-pinned" title="a debug run's pinned output: the step was not called">
              pinned
            </span>
          ) : null}
        </h4>
        <dl className="kv">
          <dt>state</dt>
          <dd>
            <span className="state" data-state={attempt.state}>
              {attempt.state}
            </span>
          </dd>
          <dt>started</dt>
          <dd>
            <When at={attempt.startedAtMs} testId="attempt-started" />
          </dd>
          <dt>took</dt>
          <dd>
            {attempt.endedAtMs === null ? 'running' : formatDuration(attempt.endedAtMs - attempt.startedAtMs)}
            {attempt.queuedAtMs !== null && attempt.startedAtMs > attempt.queuedAtMs ? <span className="faint"> · waited {formatDuration(attempt.startedAtMs - attempt.queuedAtMs)} before</span> : null}
          </dd>
          <dt>variant</dt>
          <dd>{attempt.variant === null ? 'the step’s own config' : `retry variant ${attempt.variant}`}</dd>
          <dt>effect</dt>
          <dd>{attempt.effect}</dd>
          {attempt.idempotencyKey !== null ? (
            <>
              <dt>
                <KeyRound size={12} aria-hidden="true" /> key
              </dt>
              <dd className="mono">{attempt.idempotencyKey}</dd>
            </>
          ) : null}
          {attempt.meta !== null ? <Meta meta={attempt.meta} /> : null}
        </dl>
        {attempt.error !== null ? (
          <AttemptError state={attempt.state} error={attempt.error} />
        ) : null}
        {attempt.state === 'partial' ? <AttemptPartial attempt={attempt} runId={runId} base={base} continuedBy={continuedBy} /> : null}
        {attempt.evidence !== null ? (
          <div className="rsd-evidence" data-testid="attempt-evidence">
            <ShieldCheck size={13} aria-hidden="true" />
            <span>
              {attempt.evidence.pinned === true ? 'pinned ' : ''}evidence <span className="mono">{attempt.evidence.id}</span>
              {attempt.evidence.satisfies ? '' : ' (does not satisfy the step)'} covers input <span className="mono">{attempt.evidence.covers.inputHash.slice(0, 12)}</span>, definition v
              {attempt.evidence.covers.definitionVersion}, input revision {attempt.evidence.covers.inputRevision}
              {offsetBy !== undefined ? (
                <span className="rsd-offset" data-testid="evidence-offset">
                  ; its effect was undone by <span className="mono">{offsetBy}</span>, so it no longer counts as done
                </span>
              ) : null}
            </span>
          </div>
        ) : null}
      </section>
      {attempt.route !== undefined ? <AttemptRouteView route={attempt.route} /> : null}
      <section className="rsd-section">
        <h4>Input</h4>
        <ValueView value={attempt.input} runId={runId} valuePath={`${base}.input`} label={`input of ${attempt.id}`} testId="attempt-input" />
      </section>
      {attempt.output !== undefined ? (
        <section className="rsd-section">
          <h4>{attempt.state === 'partial' ? 'Output (the part done)' : 'Output'}</h4>
          <ValueView value={attempt.output} runId={runId} valuePath={`${base}.output`} label={`output of ${attempt.id}`} testId="attempt-output" />
        </section>
      ) : null}
    </>
  );
}

/** "N of M items failed", each failed item a link to its child run (where its cause is). */
function FailedItems({ items }: { items: ItemFailures }) {
  const go = useRoute((s) => s.go);
  return (
    <div className="rsd-items" role="note" data-testid="step-items-failed">
      <Layers size={13} aria-hidden="true" />
      <span className="rsd-items-text">{itemFailuresText(items)}:</span>
      {items.failed.map((f) => (
        <button key={f.runId} type="button" className="link-button mono" onClick={() => go({ page: 'run', id: f.runId })} data-testid={`failed-item-${f.index}`} title={`open item ${f.index}'s run ${f.runId} (${f.state})`}>
          <ArrowUpRight size={12} aria-hidden="true" />
          item {f.index}
          {f.state !== 'failed' ? ` (${f.state})` : ''}
        </button>
      ))}
    </div>
  );
}

function Meta({ meta }: { meta: NonNullable<AttemptDetail['meta']> }) {
  return (
    <>
      {meta.provider !== undefined ? (
        <>
          <dt>provider</dt>
          <dd>
            {meta.provider}
            {meta.model !== undefined ? <span className="mono"> · {meta.model}</span> : null}
          </dd>
        </>
      ) : null}
      {meta.usage !== undefined ? (
        <>
          <dt>tokens</dt>
          <dd>
            {meta.usage.inputTokens.toLocaleString('en')} in · {meta.usage.outputTokens.toLocaleString('en')} out
          </dd>
        </>
      ) : null}
      {meta.cost !== undefined ? (
        <>
          <dt>cost</dt>
          <dd data-testid="attempt-cost">
            {attemptCostText(meta)} <span className="faint">({COST_BASIS[meta.cost.basis]})</span>
          </dd>
        </>
      ) : null}
      {meta.latencyMs !== undefined ? (
        <>
          <dt>latency</dt>
          <dd>{formatDuration(meta.latencyMs)}</dd>
        </>
      ) : null}
      {meta.status !== undefined ? (
        <>
          <dt>HTTP</dt>
          <dd>{meta.status}</dd>
        </>
      ) : null}
    </>
  );
}

function Provenance({ entries, onSelect }: { entries: readonly ProvenanceEntry[]; onSelect(selection: RunSelection): void }) {
  if (entries.length === 0) return null;
  return (
    <section className="rsd-section" data-testid="provenance">
      <h4>Where the input came from</h4>
      <ul className="rsd-provenance">
        {entries.map((e) => (
          <li key={`${e.where}|${e.field}`} data-testid="provenance-entry" data-field={e.field}>
            <span className="mono rsd-field">{e.field}</span>
            <span className="faint">in {e.where}</span>
            <span className="rsd-source">
              {e.source.kind === 'step' ? (
                <button type="button" className="link-button" onClick={() => e.source.kind === 'step' && onSelect({ stepId: e.source.stepId, attemptId: e.source.attemptId })} data-testid={`provenance-link-${e.source.stepId}`}>
                  <ArrowUpRight size={12} aria-hidden="true" />
                  {e.source.attemptId ?? e.source.stepId}
                </button>
              ) : e.source.kind === 'unknown' ? (
                <span className="faint">{e.source.name}: not in this run</span>
              ) : (
                <span className="faint">the run’s {e.source.kind}</span>
              )}
              {e.guaranteed ? null : <span className="rsd-maybe" title="the definition does not guarantee this source ran before the step">may not have run</span>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const StepDetail = memo(StepDetailView);
