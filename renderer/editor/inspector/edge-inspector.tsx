// The form of one edge: where it runs (changing an end reroutes it), which outcomes of its
// source it follows, its condition, the router's default flag and a loop's traversal limit.
import type { Edge, Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { EdgeOutcome } from '../../../shared/definition/names.ts';
import { onField, outcomesOf } from '../doc-ops.ts';
import { Section } from './section.tsx';
import { NumberField, SelectField, ToggleField } from './basic-fields.tsx';
import { ToggleChipsField } from './list-fields.tsx';
import { ExpressionField } from './code-fields.tsx';
import { commitFor } from './use-commit.ts';
import { closesCycle, impossibleOutcomes, offeredOutcomes } from './edge-facts.ts';
import { scopeFor } from './scope.ts';

export function EdgeInspector({ doc, edge }: { doc: Workflow; edge: Edge }) {
  const commit = commitFor({ type: 'edge', id: edge.id });
  const stepIds = doc.steps.map((s) => s.id);
  const source = doc.steps.find((s) => s.id === edge.from);
  const fromRouter = source?.kind === 'router';
  const cycle = closesCycle(doc, edge);
  const impossible = impossibleOutcomes(doc, edge);
  const otherDefault = doc.edges.find((e) => e.from === edge.from && e.id !== edge.id && e.default === true);
  return (
    <div className="ins-form" data-testid="edge-inspector">
      <Section scope="edge" id="edge" title="Edge">
        <div className="ins-row">
          <SelectField path="from" label="From" value={edge.from} options={stepIds} optional={false} onCommit={(v) => commit('from', v)} />
          <span className="ins-arrow" aria-hidden="true">
            →
          </span>
          <SelectField path="to" label="To" value={edge.to} options={stepIds} optional={false} onCommit={(v) => commit('to', v)} />
        </div>
        <ToggleChipsField<EdgeOutcome>
          path="on"
          label="Follows when the source"
          value={outcomesOf(edge)}
          options={offeredOutcomes(doc, edge)}
          warn={impossible}
          hint="none chosen means succeeded; any matches every settled outcome"
          note={impossible.length > 0 ? <span className="ins-warn">{`${edge.from} (${source?.kind ?? 'missing'}) never settles as ${impossible.join(', ')}`}</span> : undefined}
          onCommit={(v) => commit('on', onField(v ?? []))}
        />
        <ExpressionField
          path="when"
          label="Condition (when)"
          mode="jsonata"
          value={edge.when}
          scope={scopeFor(doc, null)}
          hint="JSONata over {output, input, steps, run}; output is the source step's"
          onCommit={(v) => commit('when', v)}
        />
        <ToggleField
          path="default"
          label="Default edge"
          value={edge.default}
          hint={fromRouter ? "taken when no other edge's condition holds" : `only a router's edges have a default; this edge leaves a ${source?.kind ?? 'missing'} step`}
          note={
            !fromRouter && edge.default === true ? (
              <span className="ins-warn">A default means nothing here: the source is not a router.</span>
            ) : otherDefault !== undefined && edge.default === true ? (
              <span className="ins-warn">{`${otherDefault.id} is a default edge of ${edge.from} too; keep one.`}</span>
            ) : undefined
          }
          onCommit={(v) => commit('default', v)}
        />
        <NumberField
          path="maxTraversals"
          label="Max traversals"
          value={edge.maxTraversals}
          min={1}
          hint={cycle ? undefined : 'only for an edge that closes a loop'}
          note={cycle && edge.maxTraversals === undefined ? <span className="ins-warn">This edge closes a cycle: it needs maxTraversals.</span> : undefined}
          onCommit={(v) => commit('maxTraversals', v)}
        />
        <div className="ins-field" data-field="id">
          <span className="ins-label">Edge id</span>
          <span className="mono ins-readonly">{edge.id}</span>
        </div>
      </Section>
    </div>
  );
}
