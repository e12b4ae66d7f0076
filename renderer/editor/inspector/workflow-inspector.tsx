// The workflow's own fields: id, name, description, version, input schema, output, limits.
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { Section } from './section.tsx';
import { IdField } from './id-field.tsx';
import { NumberField, TextField } from './basic-fields.tsx';
import { ExpressionField, JsonField } from './code-fields.tsx';
import { KeyValueField, positiveIntItem } from './key-value-field.tsx';
import { commitFor } from './use-commit.ts';
import { workflowIdError } from './element-edits.ts';
import { scopeFor } from './scope.ts';

export function WorkflowInspector({ doc }: { doc: Workflow }) {
  const commit = commitFor({ type: 'workflow' });
  return (
    <div className="ins-form" data-testid="workflow-inspector">
      <Section scope="workflow" id="basics" title="Workflow">
        <IdField
          path="id"
          label="Id"
          value={doc.id}
          validate={workflowIdError}
          onCommit={(next) => commit('id', next)}
          hint="a slug; renaming it renames the file when you save"
        />
        <TextField path="name" label="Name" value={doc.name} optional={false} onCommit={(v) => (v === undefined || v.trim() === '' ? 'a workflow needs a name' : commit('name', v))} />
        <TextField path="description" label="Description" value={doc.description} multiline onCommit={(v) => commit('description', v)} />
        <div className="ins-field" data-field="version">
          <span className="ins-label">Version</span>
          <span className="ins-readonly">
            <span className="mono">{doc.version}</span> <span className="faint">· set when the workflow is published</span>
          </span>
        </div>
      </Section>
      <Section scope="workflow" id="data" title="Input and output">
        <JsonField path="input" label="Input schema" mode="json-schema" value={doc.input} hint="JSON Schema of the run input; expressions may read only the fields it declares" onCommit={(v) => commit('input', v)} />
        <ExpressionField path="output" label="Output" mode="jsonata" value={doc.output} scope={scopeFor(doc, null)} multiline hint="JSONata over {input, steps, run} giving the run's result" onCommit={(v) => commit('output', v)} />
      </Section>
      <Section scope="workflow" id="limits" title="Limits">
        <NumberField path="limits.maxParallelRuns" label="Max parallel runs" value={doc.limits?.maxParallelRuns} min={1} onCommit={(v) => commit('limits.maxParallelRuns', v)} />
        <KeyValueField
          path="limits.concurrency"
          label="Resource pools"
          value={doc.limits?.concurrency}
          parse={positiveIntItem}
          format={String}
          keyPlaceholder="pool"
          valuePlaceholder="slots"
          hint="steps name a pool in their resource field; at most this many of them run at once"
          onCommit={(v) => commit('limits.concurrency', v)}
        />
      </Section>
    </div>
  );
}
