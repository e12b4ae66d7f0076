// One icon per step kind, from its entry in the renderer's kind table (renderer/kinds/kind-views.ts).
import { memo } from 'react';
import type { StepKind } from '../../shared/definition/names.ts';
import { KIND_VIEWS } from '../kinds/kind-views.ts';

export const KindIcon = memo(function KindIcon({ kind, size = 16 }: { kind: StepKind; size?: number }) {
  const Icon = KIND_VIEWS[kind].icon;
  return <Icon size={size} aria-hidden="true" strokeWidth={2} />;
});
