// The editor's edge labels, placed as the read-only graphs place theirs (edge-label-layout.ts):
// on their curve where they cover no node and no other label. The editor cannot widen the gaps
// (the positions are the document's), so a label finds room along or beside its curve only. Past
// LABEL_PLACING_MAX steps the labels stay at their curve's middle: placing costs labels × nodes
// on every move of a drag, and at that size the overview draws no labels (semantic zoom).
import { useMemo } from 'react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { labelledEdges, placeEdgeLabels, type LabelPlace } from './edge-label-layout.ts';
import type { Positions } from './to-flow.ts';

export const LABEL_PLACING_MAX = 200;
const NONE: Readonly<Record<string, LabelPlace>> = {};

export function useLabelPlaces(workflow: Workflow, positions: Positions): Readonly<Record<string, LabelPlace>> {
  const large = workflow.steps.length > LABEL_PLACING_MAX;
  const { edges, steps } = workflow;
  const labelled = useMemo(() => (large ? [] : labelledEdges({ edges, steps })), [large, edges, steps]);
  return useMemo(() => (labelled.length === 0 ? NONE : placeEdgeLabels(positions, labelled)), [positions, labelled]);
}
