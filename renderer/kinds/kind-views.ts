// What the renderer shows of each step kind, in one record keyed like the step-kind registry
// (shared/definition/step-kinds.ts, which says what a kind is: outcomes, family, route): its icon,
// what the palette says it is for, what a new step of it starts as, and its config form. A kind
// named in STEP_KINDS without an entry here does not compile.
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
import { KIND_SPECS, type KindFamily, type StepOf } from '../../shared/definition/step-kinds.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';
import { configHas, configIs, configIsNot, type FieldSpec } from './field-spec.ts';

export interface KindView<K extends StepKind> {
  /** From one icon set (lucide). */
  icon: LucideIcon;
  /** What the kind is for, as the palette and the inspector say it. */
  blurb: string;
  /**
   * What a new step of the kind starts as: the smallest config the format accepts, with values
   * that show the author what goes where. The validator then says what is still missing.
   */
  template(id: string): StepOf<K>;
  /** The config form's fields, in order, or in words why the kind has nothing to configure. */
  fields: readonly FieldSpec[] | { none: string };
}

const workflowRef: FieldSpec[] = [
  { path: 'config.workflow.id', label: 'Workflow id', widget: 'mono', placeholder: 'child-workflow' },
  { path: 'config.workflow.version', label: 'Workflow version', widget: 'number' },
];

export const KIND_VIEWS: { readonly [K in StepKind]: KindView<K> } = {
  agent: {
    icon: Bot,
    blurb: 'One LLM call',
    template: (id) => ({ id, kind: 'agent', config: { provider: 'openai', model: 'gpt-4.1-mini', apiKeyEnv: 'OPENAI_API_KEY', prompt: 'Summarise {{ input }}' } }),
    fields: [
      { path: 'config.provider', label: 'Provider' },
      { path: 'config.model', label: 'Model', widget: 'mono', show: configIsNot('provider', 'mock'), placeholder: 'gpt-4.1-mini' },
      { path: 'config.baseUrl', label: 'Base URL', widget: 'mono', show: configIs('provider', 'openai'), placeholder: 'https://api.openai.com/v1' },
      { path: 'config.apiKeyEnv', label: 'API key variable', widget: 'mono', show: configIsNot('provider', 'mock'), placeholder: 'OPENAI_API_KEY' },
      { path: 'config.system', label: 'System prompt', widget: 'template-multiline' },
      { path: 'config.prompt', label: 'Prompt', widget: 'template-multiline' },
      { path: 'config.responseFormat', label: 'Response format' },
      { path: 'config.temperature', label: 'Temperature' },
      { path: 'config.maxTokens', label: 'Max tokens' },
      { path: 'config.mock', label: 'Mock replies', widget: 'json', show: configIs('provider', 'mock'), hint: '{"replies": [{"output": …}, {"error": {"code": "…", "message": "…"}}]}; attempt N uses reply N' },
      // Choosing the executor at run time (docs/routing.md); the rule's fields once there are candidates.
      { path: 'config.candidates', label: 'Candidates', widget: 'json', hint: '[{"id": "small", "provider": "openai", "model": "gpt-4o-mini", "cost": 0.6, "tags": ["general"]}, …]; each attempt runs on one, chosen by the rule below' },
      { path: 'config.choose.order', label: 'Candidate order', show: configHas('candidates'), unset: 'as listed' },
      { path: 'config.choose.matchTags', label: 'Wanted tags', widget: 'jsonata', show: configHas('candidates'), placeholder: 'input.topic' },
      { path: 'config.choose.confidence.expression', label: 'Confidence', widget: 'jsonata', show: configHas('candidates'), placeholder: 'output.confidence' },
      { path: 'config.choose.confidence.below', label: 'Escalate below', widget: 'number', show: configHas('candidates') },
      { path: 'config.choose.circuit.failures', label: 'Circuit opens after', widget: 'number', show: configHas('candidates'), hint: 'provider failures in a row' },
      { path: 'config.choose.circuit.coolDownMs', label: 'Circuit cool-down', widget: 'duration', show: configHas('candidates') },
    ],
  },
  script: {
    icon: FileCode2,
    blurb: 'A function from a workspace module',
    template: (id) => ({ id, kind: 'script', config: { module: `scripts/${id}.js` } }),
    fields: [
      { path: 'config.module', label: 'Module', widget: 'mono', placeholder: 'scripts/step.js' },
      { path: 'config.export', label: 'Export', widget: 'mono', placeholder: 'default' },
    ],
  },
  command: {
    icon: SquareTerminal,
    blurb: 'A local process',
    template: (id) => ({ id, kind: 'command', config: { argv: ['echo', 'hello'] } }),
    fields: [
      { path: 'config.argv', label: 'Arguments (argv)', widget: 'ordered-chips', hint: 'the program first, then one chip per argument; Enter adds' },
      { path: 'config.cwd', label: 'Working directory', widget: 'mono' },
      { path: 'config.env', label: 'Environment', widget: 'kv-text' },
      { path: 'config.exitCodes', label: 'Exit codes', widget: 'exit-codes' },
    ],
  },
  http: {
    icon: Globe,
    blurb: 'One HTTP request',
    template: (id) => ({ id, kind: 'http', config: { method: 'GET', url: 'https://example.com/' } }),
    fields: [
      { path: 'config.method', label: 'Method' },
      { path: 'config.url', label: 'URL', widget: 'template', placeholder: 'https://api.example.com/orders/{{ input.id }}' },
      { path: 'config.headers', label: 'Headers', widget: 'kv-template' },
      { path: 'config.body', label: 'Body', widget: 'jsonata-multiline', show: configIs('method', 'POST', 'PUT', 'PATCH', 'DELETE') },
      { path: 'config.expectStatus', label: 'Expected status', widget: 'status-chips', hint: 'statuses that count as success (default: 2xx)' },
    ],
  },
  human: {
    icon: UserRound,
    blurb: 'A task for a person',
    template: (id) => ({ id, kind: 'human', config: { task: 'approve', title: 'Approve' } }),
    fields: [
      { path: 'config.task', label: 'Task' },
      { path: 'config.title', label: 'Title', widget: 'template' },
      { path: 'config.instructions', label: 'Instructions', widget: 'template-multiline' },
      { path: 'config.assignee', label: 'Assignee' },
      { path: 'config.options', label: 'Options', widget: 'chips', show: configIs('task', 'classify') },
      { path: 'config.form', label: 'Answer form', widget: 'json-schema' },
      { path: 'config.onExpire', label: 'When the deadline passes' },
    ],
  },
  wait: {
    icon: Clock,
    blurb: 'A timer',
    template: (id) => ({ id, kind: 'wait', config: { durationMs: 60_000 } }),
    fields: [
      { path: 'config.durationMs', label: 'Duration', widget: 'duration' },
      { path: 'config.until', label: 'Until', widget: 'jsonata', hint: 'JSONata giving an ISO 8601 time; set this or a duration' },
    ],
  },
  event: {
    icon: Radio,
    blurb: 'Wait for a correlated event',
    template: (id) => ({ id, kind: 'event', config: { name: 'event_name', correlationKey: '$string(run.id)' } }),
    fields: [
      { path: 'config.name', label: 'Event name', widget: 'mono' },
      { path: 'config.correlationKey', label: 'Correlation key', widget: 'jsonata' },
    ],
  },
  router: {
    icon: GitBranch,
    blurb: 'Pick one outgoing edge',
    template: (id) => ({ id, kind: 'router' }),
    fields: { none: 'A router has no config: it takes the first outgoing edge whose condition holds, else its default edge. Set them on the edges.' },
  },
  join: {
    icon: GitMerge,
    blurb: 'Wait for several branches',
    template: (id) => ({ id, kind: 'join', config: { mode: 'all' } }),
    fields: [
      { path: 'config.mode', label: 'Mode' },
      { path: 'config.count', label: 'Count', widget: 'number', show: configIs('mode', 'atLeast') },
      { path: 'config.branches', label: 'Branches', widget: 'step-chips', show: configIs('mode', 'subset') },
      { path: 'config.onFailedBranch', label: 'A branch fails' },
      { path: 'config.onCancelledBranch', label: 'A branch is cancelled' },
    ],
  },
  map: {
    icon: Layers,
    blurb: 'Run a workflow per list item',
    template: (id) => ({ id, kind: 'map', config: { items: '[]', workflow: { id: 'child-workflow', version: 1 } } }),
    fields: [
      { path: 'config.items', label: 'Items', widget: 'jsonata' },
      ...workflowRef,
      { path: 'config.concurrency', label: 'Concurrency' },
      { path: 'config.onItemFailure', label: 'An item fails' },
    ],
  },
  subworkflow: {
    icon: Workflow,
    blurb: 'Run another workflow',
    template: (id) => ({ id, kind: 'subworkflow', config: { workflow: { id: 'child-workflow', version: 1 } } }),
    fields: workflowRef,
  },
  transform: {
    icon: Wand2,
    blurb: 'Reshape data with JSONata',
    template: (id) => ({ id, kind: 'transform', config: { expression: 'input' } }),
    fields: [{ path: 'config.expression', label: 'Expression', widget: 'jsonata-multiline' }],
  },
  end: {
    icon: CircleStop,
    blurb: 'Finish the run',
    template: (id) => ({ id, kind: 'end' }),
    fields: [{ path: 'config.status', label: 'Run status' }],
  },
};

/**
 * A new step of `kind` with id `id`, as its template gives it.
 *
 * @example newStep('wait', 'wait_2') // { id: 'wait_2', kind: 'wait', config: { durationMs: 60000 } }
 */
export function newStep(kind: StepKind, id: string): Step {
  return KIND_VIEWS[kind].template(id);
}

/** The config fields of `kind`'s form, in order (none for a kind with nothing to configure). */
export function configFields(kind: StepKind): readonly FieldSpec[] {
  const fields = KIND_VIEWS[kind].fields;
  return 'none' in fields ? [] : fields;
}

/**
 * The family a step of `kind` is drawn in on the canvas: its palette family, except that a kind
 * with no outcomes ends its path and is drawn as an end.
 */
export function nodeFamily(kind: StepKind): KindFamily | 'end' {
  const spec = KIND_SPECS[kind];
  return spec.outcomes.length === 0 ? 'end' : spec.family;
}
