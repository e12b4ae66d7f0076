// A handoff record between two steps (docs/long-running.md, "Handoff records"), as a card in a
// step's detail: on the receiving step "Handoff from research" (the record its attempt received,
// under `handoff` of its input), on the giving step "Handoff to draft" (the record its attempt
// gave, under `handoff` of its output). What was completed, what the receiving step must do, the
// constraints that apply and the references, each a link where it points somewhere: a URL opens,
// a step of the run is selected.
import { ArrowUpRight, CheckCircle2, ExternalLink, Handshake, ListChecks, ShieldAlert } from 'lucide-react';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { handoffIn, type HandoffRecord, type HandoffRef } from '../../../shared/definition/handoff-record.ts';
import type { AttemptDetail } from '../../../shared/api/run-detail.ts';
import type { ReactNode } from 'react';
import './handoff.css';

/** A step (and attempt) to select, as the step detail's `onSelect` takes it. */
interface RunSelection {
  stepId: string;
  attemptId: string | null;
}

/** The steps a step hands off to, and the one it receives a handoff from, by the definition. */
export function handoffPartners(definition: Workflow, stepId: string): { from: string | undefined; to: string[]; gives: boolean } {
  const step = definition.steps.find((s) => s.id === stepId);
  const to = step?.handoff === true ? definition.steps.filter((s) => s.handoffFrom === stepId).map((s) => s.id) : [];
  return { from: step?.handoffFrom, to, gives: step?.handoff === true };
}

interface Props {
  definition: Workflow;
  stepId: string;
  attempt: AttemptDetail | undefined;
  onSelect(selection: RunSelection): void;
}

/** The cards of the selected attempt: the record it received and the record it gave, when there are. */
export function HandoffCards({ definition, stepId, attempt, onSelect }: Props) {
  const { from, to, gives } = handoffPartners(definition, stepId);
  if (attempt === undefined || (from === undefined && !gives)) return null;
  const received = from === undefined ? undefined : handoffIn(attempt.input);
  const given = gives ? handoffIn(attempt.output) : undefined;
  return (
    <>
      {from !== undefined && received !== undefined ? <HandoffCard record={received} title="Handoff from" other={[from]} direction="from" onSelect={onSelect} /> : null}
      {given !== undefined ? <HandoffCard record={given} title={to.length > 0 ? 'Handoff to' : 'Handoff'} other={to} direction="to" onSelect={onSelect} /> : null}
    </>
  );
}

function HandoffCard({ record, title, other, direction, onSelect }: { record: HandoffRecord; title: string; other: string[]; direction: 'from' | 'to'; onSelect(s: RunSelection): void }) {
  const completed = typeof record.completed === 'string' ? [record.completed] : record.completed;
  return (
    <section className="handoff-card" data-testid={`handoff-${direction}`} aria-label={`${title} ${other.join(', ')}`.trim()}>
      <header className="handoff-head">
        <Handshake size={14} aria-hidden="true" />
        <span className="handoff-title">{title}</span>
        {other.map((id) => (
          <button key={id} type="button" className="link-button mono handoff-step" onClick={() => onSelect({ stepId: id, attemptId: null })} data-testid={`handoff-step-${id}`} title={`select step ${id}`}>
            {id}
            <ArrowUpRight size={12} aria-hidden="true" />
          </button>
        ))}
      </header>
      <div className="handoff-next" data-testid="handoff-next">
        <span className="handoff-label">Next</span>
        <p>{record.next}</p>
      </div>
      <div className="handoff-grid">
        <HandoffList label="Completed" icon={<CheckCircle2 size={13} aria-hidden="true" />} items={completed} kind="completed" />
        {record.constraints !== undefined && record.constraints.length > 0 ? (
          <HandoffList label="Constraints" icon={<ShieldAlert size={13} aria-hidden="true" />} items={record.constraints} kind="constraints" />
        ) : null}
      </div>
      {record.refs !== undefined && record.refs.length > 0 ? (
        <div className="handoff-refs" data-testid="handoff-refs">
          <span className="handoff-label">
            <ListChecks size={13} aria-hidden="true" /> References
          </span>
          <ul>
            {record.refs.map((r, i) => (
              <li key={i}>
                <Ref value={r} onSelect={onSelect} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function HandoffList({ label, icon, items, kind }: { label: string; icon: ReactNode; items: readonly string[]; kind: string }) {
  return (
    <div className="handoff-list" data-kind={kind} data-testid={`handoff-${kind}`}>
      <span className="handoff-label">{label}</span>
      <ul>
        {items.map((t, i) => (
          <li key={i}>
            {icon}
            <span>{t}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

function Ref({ value, onSelect }: { value: HandoffRef; onSelect(s: RunSelection): void }) {
  if (typeof value === 'string') {
    return isUrl(value) ? (
      <a href={value} target="_blank" rel="noreferrer noopener" className="handoff-ref-link">
        <span className="handoff-ref-url">{value}</span>
        <ExternalLink size={12} aria-hidden="true" />
      </a>
    ) : (
      <span>{value}</span>
    );
  }
  return (
    <span className="handoff-ref">
      {value.url !== undefined && isUrl(value.url) ? (
        <a href={value.url} target="_blank" rel="noreferrer noopener" className="handoff-ref-link" title={value.url}>
          {value.title}
          <ExternalLink size={12} aria-hidden="true" />
        </a>
      ) : (
        <span>{value.title}</span>
      )}
      {value.url !== undefined && !isUrl(value.url) ? <span className="mono faint handoff-ref-url">{value.url}</span> : null}
      {value.url !== undefined && isUrl(value.url) ? <span className="faint handoff-ref-url">{hostOf(value.url)}</span> : null}
      {value.step !== undefined ? (
        <button type="button" className="link-button mono handoff-ref-step" onClick={() => value.step !== undefined && onSelect({ stepId: value.step, attemptId: null })} title={`select step ${value.step}`}>
          {value.step}
        </button>
      ) : null}
    </span>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
