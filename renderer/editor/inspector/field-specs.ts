// Which fields each form shows, in what order and with which control. Types, choices, bounds,
// required-ness and hints come from the zod schemas (see auto-field.tsx); this table adds only
// what a schema cannot say: a label, that a string is a template or an expression, that a
// number is a duration, and when a field matters (a model only for a real provider).
import type { StepKind } from '../../../shared/definition/names.ts';

export type Widget =
  | 'text'
  | 'mono'
  | 'multiline'
  | 'template'
  | 'template-multiline'
  | 'jsonata'
  | 'jsonata-multiline'
  | 'json'
  | 'json-schema'
  | 'number'
  | 'duration'
  | 'select'
  | 'toggle'
  | 'chips'
  | 'ordered-chips'
  | 'status-chips'
  | 'step-chips'
  | 'kv-text'
  | 'kv-template'
  | 'exit-codes'
  | 'step-select'
  | 'resource';

export interface FieldSpec {
  /** JSON path inside the element: `config.url`, `retry.maxAttempts`. */
  path: string;
  label: string;
  widget?: Widget;
  hint?: string;
  placeholder?: string;
  /** What an unset select means (its empty choice). */
  unset?: string;
  /** Shown only when this holds for the element, or when the field has a value. */
  show?(element: Record<string, unknown>): boolean;
}

const configOf = (e: Record<string, unknown>): Record<string, unknown> => {
  const c = e['config'];
  return typeof c === 'object' && c !== null && !Array.isArray(c) ? Object.fromEntries(Object.entries(c)) : {};
};
const configIs = (key: string, ...values: string[]) => (e: Record<string, unknown>): boolean => values.includes(String(configOf(e)[key]));
const configIsNot = (key: string, value: string) => (e: Record<string, unknown>): boolean => configOf(e)[key] !== value;

const workflowRef: FieldSpec[] = [
  { path: 'config.workflow.id', label: 'Workflow id', widget: 'mono', placeholder: 'child-workflow' },
  { path: 'config.workflow.version', label: 'Workflow version', widget: 'number' },
];

export const CONFIG_FIELDS: Record<StepKind, FieldSpec[]> = {
  agent: [
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
  ],
  script: [
    { path: 'config.module', label: 'Module', widget: 'mono', placeholder: 'scripts/step.js' },
    { path: 'config.export', label: 'Export', widget: 'mono', placeholder: 'default' },
  ],
  command: [
    { path: 'config.argv', label: 'Arguments (argv)', widget: 'ordered-chips', hint: 'the program first, then one chip per argument; Enter adds' },
    { path: 'config.cwd', label: 'Working directory', widget: 'mono' },
    { path: 'config.env', label: 'Environment', widget: 'kv-text' },
    { path: 'config.exitCodes', label: 'Exit codes', widget: 'exit-codes' },
  ],
  http: [
    { path: 'config.method', label: 'Method' },
    { path: 'config.url', label: 'URL', widget: 'template', placeholder: 'https://api.example.com/orders/{{ input.id }}' },
    { path: 'config.headers', label: 'Headers', widget: 'kv-template' },
    { path: 'config.body', label: 'Body', widget: 'jsonata-multiline', show: configIs('method', 'POST', 'PUT', 'PATCH', 'DELETE') },
    { path: 'config.expectStatus', label: 'Expected status', widget: 'status-chips', hint: 'statuses that count as success (default: 2xx)' },
  ],
  human: [
    { path: 'config.task', label: 'Task' },
    { path: 'config.title', label: 'Title', widget: 'template' },
    { path: 'config.instructions', label: 'Instructions', widget: 'template-multiline' },
    { path: 'config.assignee', label: 'Assignee' },
    { path: 'config.options', label: 'Options', widget: 'chips', show: configIs('task', 'classify') },
    { path: 'config.form', label: 'Answer form', widget: 'json-schema' },
    { path: 'config.onExpire', label: 'When the deadline passes' },
  ],
  wait: [
    { path: 'config.durationMs', label: 'Duration', widget: 'duration' },
    { path: 'config.until', label: 'Until', widget: 'jsonata', hint: 'JSONata giving an ISO 8601 time; set this or a duration' },
  ],
  event: [
    { path: 'config.name', label: 'Event name', widget: 'mono' },
    { path: 'config.correlationKey', label: 'Correlation key', widget: 'jsonata' },
  ],
  router: [],
  join: [
    { path: 'config.mode', label: 'Mode' },
    { path: 'config.count', label: 'Count', widget: 'number', show: configIs('mode', 'atLeast') },
    { path: 'config.branches', label: 'Branches', widget: 'step-chips', show: configIs('mode', 'subset') },
    { path: 'config.onFailedBranch', label: 'A branch fails' },
    { path: 'config.onCancelledBranch', label: 'A branch is cancelled' },
  ],
  map: [
    { path: 'config.items', label: 'Items', widget: 'jsonata' },
    ...workflowRef,
    { path: 'config.concurrency', label: 'Concurrency' },
    { path: 'config.onItemFailure', label: 'An item fails' },
  ],
  subworkflow: workflowRef,
  transform: [{ path: 'config.expression', label: 'Expression', widget: 'jsonata-multiline' }],
  end: [{ path: 'config.status', label: 'Run status' }],
};

export const DATA_FIELDS: FieldSpec[] = [
  { path: 'input', label: 'Input', widget: 'jsonata-multiline', hint: 'JSONata over {input, steps, run}; absent passes the run input' },
  { path: 'output', label: 'Output schema', widget: 'json-schema' },
  { path: 'accept', label: 'Accept when', widget: 'jsonata' },
];

export const RELIABILITY_FIELDS: FieldSpec[] = [
  { path: 'retry.maxAttempts', label: 'Max attempts', placeholder: '1' },
  { path: 'retry.initialIntervalMs', label: 'First retry after', widget: 'duration' },
  { path: 'retry.backoffCoefficient', label: 'Backoff factor' },
  { path: 'retry.maxIntervalMs', label: 'Longest interval', widget: 'duration' },
  { path: 'retry.jitter', label: 'Jitter' },
  { path: 'retry.nonRetryable', label: 'Never retry codes', widget: 'chips' },
  { path: 'retry.variants', label: 'Attempt variants', widget: 'json' },
  { path: 'timeoutMs', label: 'Timeout', widget: 'duration' },
  { path: 'deadlineMs', label: 'Deadline', widget: 'duration' },
  { path: 'onExhausted', label: 'When retries run out', unset: 'fail (default)' },
];

const isEffectful = (e: Record<string, unknown>): boolean => e['effect'] === 'idempotent' || e['effect'] === 'external';

export const EFFECT_FIELDS: FieldSpec[] = [
  { path: 'effect', label: 'Effect', unset: 'none (default)' },
  { path: 'idempotencyKey', label: 'Idempotency key', widget: 'jsonata', show: isEffectful },
  { path: 'onRevise', label: 'On revision', unset: 'default: ask if external, else rerun' },
];

export const ADVANCED_FIELDS: FieldSpec[] = [
  { path: 'compensation', label: 'Compensation', widget: 'step-select' },
  { path: 'resource', label: 'Resource pool', widget: 'resource' },
  { path: 'optional', label: 'Optional branch' },
];
