// The inspector panel: the form (or raw JSON) of the selected step, the selected edge, or the
// workflow itself when nothing is selected; a summary when several things are.
import { ElementSite } from './field-diagnostics.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Braces, SlidersHorizontal } from 'lucide-react';
import { useEditor } from '../editor-store.ts';
import { KindIcon } from '../../graph/kind-icon.tsx';
import type { InspectedElement } from './focus-target.ts';
import { elementValue } from './element-edits.ts';
import { useInspectorUi, type InspectorTab } from './inspector-ui-store.ts';
import { useFocusRequest } from './use-focus-request.ts';
import { StepInspector } from './step-inspector.tsx';
import { EdgeInspector } from './edge-inspector.tsx';
import { WorkflowInspector } from './workflow-inspector.tsx';
import { SelectionSummary } from './selection-summary.tsx';
import { ElementJsonEditor } from './element-json-editor.tsx';
import { elementKey } from './use-commit.ts';
import './inspector.css';

const TABS: Array<{ id: InspectorTab; label: string; icon: ReactNode }> = [
  { id: 'form', label: 'Form', icon: <SlidersHorizontal size={13} aria-hidden="true" /> },
  { id: 'json', label: 'JSON', icon: <Braces size={13} aria-hidden="true" /> },
];

function Tabs({ tab, panelId, baseId }: { tab: InspectorTab; panelId: string; baseId: string }) {
  const setTab = useInspectorUi((s) => s.setTab);
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const next = tab === 'form' ? 'json' : 'form';
    setTab(next);
    document.getElementById(`${baseId}-${next}`)?.focus();
  };
  return (
    <div className="ins-tabs" role="tablist" aria-label="Inspector view" onKeyDown={onKey}>
      {TABS.map((t) => (
        <button
          key={t.id}
          id={`${baseId}-${t.id}`}
          type="button"
          role="tab"
          aria-selected={tab === t.id}
          aria-controls={panelId}
          tabIndex={tab === t.id ? 0 : -1}
          className="ins-tab"
          data-testid={`inspector-tab-${t.id}`}
          onClick={() => setTab(t.id)}
        >
          {t.icon}
          {t.label}
        </button>
      ))}
    </div>
  );
}

function Title({ element }: { element: InspectedElement }) {
  const doc = useEditor((s) => s.doc);
  if (doc === null) return null;
  if (element.type === 'workflow') {
    return (
      <div className="ins-title">
        <span className="ins-title-kind">Workflow</span>
        <span className="ins-title-name">{doc.name}</span>
      </div>
    );
  }
  if (element.type === 'step') {
    const step = doc.steps.find((s) => s.id === element.id);
    return (
      <div className="ins-title">
        {step === undefined ? null : <KindIcon kind={step.kind} size={15} />}
        <span className="ins-title-name">{step?.name ?? element.id}</span>
        {step?.name !== undefined ? <span className="ins-title-id mono">{element.id}</span> : null}
      </div>
    );
  }
  const edge = doc.edges.find((e) => e.id === element.id);
  return (
    <div className="ins-title">
      <span className="ins-title-kind">Edge</span>
      <span className="ins-title-name mono">{edge === undefined ? element.id : `${edge.from} → ${edge.to}`}</span>
    </div>
  );
}

export function Inspector({ extra }: { extra?: ReactNode }) {
  const doc = useEditor((s) => s.doc);
  const selection = useEditor((s) => s.selection);
  const tab = useInspectorUi((s) => s.tab);
  const root = useRef<HTMLElement>(null);
  const baseId = useId();
  useFocusRequest(root);
  if (doc === null) return null;

  const several = selection.steps.length + selection.edges.length > 1;
  const element: InspectedElement =
    selection.steps.length === 1 && selection.steps[0] !== undefined && !several
      ? { type: 'step', id: selection.steps[0] }
      : selection.edges.length === 1 && selection.edges[0] !== undefined && !several
        ? { type: 'edge', id: selection.edges[0] }
        : { type: 'workflow' };
  const value = several ? null : elementValue(doc, element);
  const panelId = `${baseId}-panel`;

  let body: ReactNode;
  if (several) body = <SelectionSummary selection={selection} />;
  else if (value === null) body = <p className="ins-empty">The selected element is no longer in the workflow.</p>;
  else if (tab === 'json') body = <ElementJsonEditor key={elementKey(element)} element={element} value={value} />;
  else if (element.type === 'step') {
    const step = doc.steps.find((s) => s.id === element.id);
    body = step === undefined ? null : <StepInspector key={elementKey(element)} doc={doc} step={step} />;
  } else if (element.type === 'edge') {
    const edge = doc.edges.find((e) => e.id === element.id);
    body = edge === undefined ? null : <EdgeInspector key={elementKey(element)} doc={doc} edge={edge} />;
  } else body = <WorkflowInspector doc={doc} />;

  return (
    <section className="inspector" ref={root} aria-label="Inspector" data-testid="inspector" data-element={several ? 'several' : element.type}>
      <header className="ins-head">
        {several ? <div className="ins-title">Selection</div> : <Title element={element} />}
        {several ? null : <Tabs tab={tab} panelId={panelId} baseId={baseId} />}
      </header>
      <div className="ins-body" id={panelId} role={several ? undefined : 'tabpanel'} aria-labelledby={several ? undefined : `${baseId}-${tab}`}>
        <ElementSite.Provider value={several ? null : siteOf(doc, element)}>{body}</ElementSite.Provider>
        {extra}
      </div>
    </section>
  );
}

/** The JSON path of the inspected element, as the validator's findings name it. */
function siteOf(doc: Workflow, element: InspectedElement): string | null {
  if (element.type === 'workflow') return '$';
  const index = element.type === 'step' ? doc.steps.findIndex((s) => s.id === element.id) : doc.edges.findIndex((e) => e.id === element.id);
  if (index < 0) return null;
  return element.type === 'step' ? `$.steps[${index}]` : `$.edges[${index}]`;
}
