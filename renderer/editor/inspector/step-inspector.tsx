// The form of one step: basics, its kind's config, data, reliability, revalidation (waiting
// steps), effect and advanced.
import { StepLessons } from './step-lessons.tsx';
import type { Step, Workflow } from '../../../shared/definition/workflow-schema.ts';
import { KindIcon } from '../../graph/kind-icon.tsx';
import { KIND_VIEWS } from '../../kinds/kind-views.ts';
import { Section } from './section.tsx';
import { IdField } from './id-field.tsx';
import { TextField } from './basic-fields.tsx';
import type { FieldContext } from './auto-field.tsx';
import { StepFields as Fields } from './step-fields.tsx';
import { RevalidationSection } from './revalidation-section.tsx';
import { ADVANCED_FIELDS, DATA_FIELDS, EFFECT_FIELDS, RELIABILITY_FIELDS } from './field-specs.ts';
import { commitFor } from './use-commit.ts';
import { stepIdError } from './element-edits.ts';
import { scopeFor } from './scope.ts';
import { exactDuration } from './duration.ts';

function reliabilitySummary(step: Step): string | undefined {
  const parts: string[] = [];
  if (step.retry?.maxAttempts !== undefined) parts.push(`${step.retry.maxAttempts} attempts`);
  if (step.timeoutMs !== undefined) parts.push(`timeout ${exactDuration(step.timeoutMs)}`);
  if (step.deadlineMs !== undefined) parts.push(`deadline ${exactDuration(step.deadlineMs)}`);
  return parts.length === 0 ? undefined : parts.join(' · ');
}

export function StepInspector({ doc, step }: { doc: Workflow; step: Step }) {
  const element = { type: 'step', id: step.id } as const;
  const commit = commitFor(element);
  const ctx: FieldContext = {
    scope: scopeFor(doc, step.id),
    stepIds: doc.steps.filter((s) => s.id !== step.id).map((s) => s.id),
    resources: Object.keys(doc.limits?.concurrency ?? {}),
    commit,
  };
  const config = KIND_VIEWS[step.kind].fields;
  return (
    <div className="ins-form" data-testid="step-inspector">
      <StepLessons stepId={step.id} />
      <Section scope="step" id="basics" title="Basics">
        <div className="ins-field" data-field="kind">
          <span className="ins-label">Kind</span>
          <div className="ins-kind">
            <KindIcon kind={step.kind} size={14} />
            <span className="mono">{step.kind}</span>
            <span className="faint">{KIND_VIEWS[step.kind].blurb}</span>
          </div>
        </div>
        <IdField
          path="id"
          label="Id"
          value={step.id}
          validate={(next) => stepIdError(doc, step.id, next)}
          onCommit={(next) => commit('id', next)}
          hint="Enter to rename; edges, compensations and join branches follow"
        />
        <TextField path="name" label="Name" value={step.name} onCommit={(v) => commit('name', v)} placeholder={step.id} />
        <TextField path="description" label="Description" value={step.description} onCommit={(v) => commit('description', v)} multiline />
      </Section>
      <Section scope="step" id="config" title={`${step.kind} config`}>
        {'none' in config ? (
          <p className="ins-empty" data-field="config">
            {config.none}
          </p>
        ) : (
          <div data-field="config">
            <Fields specs={config} step={step} ctx={ctx} />
          </div>
        )}
      </Section>
      <Section scope="step" id="data" title="Data">
        <Fields specs={DATA_FIELDS} step={step} ctx={ctx} />
      </Section>
      <Section scope="step" id="reliability" title="Reliability" summary={reliabilitySummary(step)}>
        <Fields specs={RELIABILITY_FIELDS} step={step} ctx={ctx} />
      </Section>
      <RevalidationSection step={step} ctx={ctx} />
      <Section scope="step" id="effect" title="Effect" summary={step.effect}>
        <Fields specs={EFFECT_FIELDS} step={step} ctx={ctx} />
      </Section>
      <Section scope="step" id="advanced" title="Advanced">
        <Fields specs={ADVANCED_FIELDS} step={step} ctx={ctx} />
      </Section>
    </div>
  );
}
