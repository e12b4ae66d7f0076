// The run's definition snapshot as the action dialogs build their forms from it: with its keys in
// the workflow file's order (forms/key-order.ts), so the revise, fork, skip and resolve forms list
// their fields as the start form does, not alphabetically as the store keeps them.
import { useMemo } from 'react';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { useWorkflowDetail } from '../../core/workflow-queries.ts';
import { orderKeysLike } from '../../forms/key-order.ts';

export function useOrderedDefinition(detail: RunDetail): Workflow | undefined {
  const file = useWorkflowDetail(detail.run.workflowId).data?.definition;
  const snapshot = detail.definition;
  return useMemo(() => (snapshot === undefined ? undefined : orderKeysLike(snapshot, file ?? undefined)), [snapshot, file]);
}
