// One icon per step kind, from one icon set (lucide).
import { memo } from 'react';
import {
  Bot,
  CircleStop,
  Clock,
  FileCode2,
  GitBranch,
  GitMerge,
  Globe,
  Layers,
  Radio,
  SquareTerminal,
  UserRound,
  Wand2,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { StepKind } from '../../shared/definition/names.ts';

export const KIND_ICONS: Record<StepKind, LucideIcon> = {
  agent: Bot,
  script: FileCode2,
  command: SquareTerminal,
  http: Globe,
  human: UserRound,
  wait: Clock,
  event: Radio,
  router: GitBranch,
  join: GitMerge,
  map: Layers,
  subworkflow: Workflow,
  transform: Wand2,
  end: CircleStop,
};

export const KindIcon = memo(function KindIcon({ kind, size = 16 }: { kind: StepKind; size?: number }) {
  const Icon = KIND_ICONS[kind];
  return <Icon size={size} aria-hidden="true" strokeWidth={2} />;
});
