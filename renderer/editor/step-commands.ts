// The editor's commands that take an argument: add a step of a kind (after the selected step,
// or after the step an edge was dragged from), centre the canvas on a step or edge, and focus
// the inspector's field at a JSON path. The palette, the canvas, the Problems panel and the
// handoffs panel call them through the same runner as the keyed commands.
import type { StepKind } from '../../shared/definition/names.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { edgeOutcomesFor } from '../../shared/definition/kind-outcomes.ts';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/to-flow.ts';
import { addStep, connect, type Point } from './doc-ops.ts';
import { positionsOf } from './editor-store.ts';
import type { EditorCommand } from './command-types.ts';
import { focusTarget } from './inspector/focus-target.ts';
import { useInspectorUi } from './inspector/inspector-ui-store.ts';

export interface InsertStep {
  kind: StepKind;
  /** Where the new step's centre goes, in flow coordinates; without it, right of `after` or the view's centre. */
  at?: Point;
  /** The step the new one follows (connected by its first outcome): null for none; left out, the one selected step. */
  after?: string | null;
}

/** Space between a step and one added after it. */
const AFTER_GAP = 80;

export const insertStepCommand: EditorCommand<InsertStep> = {
  id: 'insertStep',
  label: 'Add a step of a kind',
  group: 'Canvas',
  keys: [],
  perform(editor, { kind, at, after }) {
    const doc = editor.doc;
    if (doc === null) return;
    if (editor.overlay?.kind === 'palette') editor.show(null);
    const base = positionsOf(doc, editor.basePositions, editor.openedLayout);
    const only = editor.selection.steps.length === 1 ? editor.selection.steps[0] : undefined;
    const from = after === undefined ? only : (after ?? undefined);
    const fromAt = from === undefined ? undefined : base[from];
    const centre = at ?? editor.view?.centre().flow ?? { x: 0, y: 0 };
    const topLeft = at === undefined && fromAt !== undefined ? { x: fromAt.x + NODE_WIDTH + AFTER_GAP, y: fromAt.y } : { x: centre.x - NODE_WIDTH / 2, y: centre.y - NODE_HEIGHT / 2 };
    let id = '';
    editor.edit((d) => {
      const added = addStep(d, kind, topLeft, base);
      id = added.id;
      const fromStep = from === undefined ? undefined : added.doc.steps.find((s) => s.id === from);
      const outcome = fromStep === undefined ? undefined : edgeOutcomesFor(fromStep)[0];
      return fromStep === undefined || outcome === undefined ? added.doc : connect(added.doc, fromStep.id, id, [outcome]).doc;
    });
    if (id === '') return;
    editor.select({ steps: [id], edges: [] });
    // Placed where the user did not point: bring it into view, if it is not (the camera stays put when it is).
    if (at === undefined) revealCommand.perform(editor, { stepId: id });
  },
};

export type RevealTarget = { stepId: string; edgeId?: undefined } | { edgeId: string; stepId?: undefined };

export const revealCommand: EditorCommand<RevealTarget> = {
  id: 'reveal',
  label: 'Bring a step or edge into view',
  group: 'Canvas',
  keys: [],
  perform(editor, target) {
    const ids = target.stepId !== undefined ? [target.stepId] : edgeEnds(editor.doc, target.edgeId);
    if (ids.length > 0) editor.view?.reveal(ids);
  },
};

function edgeEnds(doc: Workflow | null, edgeId: string): string[] {
  const edge = doc?.edges.find((e) => e.id === edgeId);
  return edge === undefined ? [] : [edge.from, edge.to];
}

/** Selects the element a JSON path (`$.steps[2].input`) is in, opens its section and focuses the field once the form shows it. */
export const focusFieldCommand: EditorCommand<string> = {
  id: 'focusField',
  label: 'Focus a field in the inspector',
  group: 'Edit',
  keys: [],
  perform(editor, site) {
    if (editor.doc === null) return;
    const target = focusTarget(editor.doc, site);
    if (target === null) return;
    const { element } = target;
    editor.select(element.type === 'workflow' ? { steps: [], edges: [] } : element.type === 'step' ? { steps: [element.id], edges: [] } : { steps: [], edges: [element.id] });
    const ui = useInspectorUi.getState();
    ui.setTab('form');
    if (target.section !== null) ui.setOpen(`${element.type}:${target.section}`, true);
    // With no field named, the element's first field takes the focus.
    ui.focusLater(target.fields.length > 0 ? target.fields : [element.type === 'edge' ? 'from' : 'id']);
  },
};
