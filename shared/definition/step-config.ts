// Per-kind `config` schemas. Each is strict: an unknown key is a typo until proven otherwise.
import { z } from 'zod';
import { Expression, JsonSchemaValue, Template } from './json-schema-value.ts';
import { HUMAN_TASKS, ON_EXPIRE } from './names.ts';
import { AGENT_PROVIDERS, AgentCandidate, ApiKeyEnv, ChooseRule, MockScript } from './agent-route.ts';

const WorkflowRef = z.strictObject({
  id: z.string().min(1).describe('id of the called workflow'),
  version: z.number().int().positive().describe('the pinned version of the called workflow'),
});

/**
 * An agent step's config. With `candidates`, the step's executor is chosen when each attempt
 * starts (docs/routing.md): the chosen candidate's provider, model, baseUrl, apiKeyEnv and mock
 * replace the step's own for that attempt, so `provider` may then be left out.
 */
export const AgentConfig = z
  .strictObject({
    provider: z.enum(AGENT_PROVIDERS).optional().describe('required unless the step lists candidates'),
    model: z.string().min(1).optional().describe('model name; required for openai and anthropic'),
    baseUrl: z.url().optional().describe('server URL for openai-compatible providers'),
    apiKeyEnv: ApiKeyEnv.optional(),
    system: Template.optional(),
    prompt: Template,
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    responseFormat: z.enum(['json', 'text']).optional(),
    mock: MockScript.optional(),
    candidates: z.array(AgentCandidate).min(1, 'candidates needs at least one candidate').optional().describe('executors chosen from at run time by `choose`'),
    choose: ChooseRule.optional().describe('how a candidate is chosen when an attempt starts (docs/routing.md)'),
  })
  .refine((c) => c.provider !== undefined || c.candidates !== undefined, {
    message: 'an agent needs a provider, or candidates to choose from',
    path: ['provider'],
  })
  .refine((c) => c.provider === undefined || c.provider === 'mock' || c.model !== undefined, {
    message: 'openai and anthropic agents need a model',
    path: ['model'],
  })
  .refine((c) => c.provider !== 'mock' || c.mock !== undefined, {
    message: 'a mock agent needs mock.replies',
    path: ['mock'],
  })
  .refine((c) => c.choose === undefined || c.candidates !== undefined, {
    message: 'choose applies to candidates: list them in config.candidates, or remove choose',
    path: ['choose'],
  })
  .refine((c) => new Set((c.candidates ?? []).map((x) => x.id)).size === (c.candidates ?? []).length, {
    message: 'candidate ids must be unique within the step',
    path: ['candidates'],
  });
export type AgentConfig = z.infer<typeof AgentConfig>;

export const ScriptConfig = z.strictObject({
  module: z.string().min(1).describe('path of a JS/TS module, relative to the workflow file'),
  export: z.string().min(1).optional().describe('name of the exported function (default "default")'),
});

const ExitMapping = z.strictObject({
  outcome: z.enum(['succeeded', 'failed', 'unknown', 'partial']).describe('partial: the command finished part of its work; stdout is the part done, or a $partial report (docs/long-running.md#partial-completion)'),
  code: z.string().min(1).optional().describe('error code recorded for a failed outcome'),
});

export const CommandConfig = z.strictObject({
  argv: z.array(z.string()).min(1, 'argv needs at least the program to run'),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  exitCodes: z
    .record(z.string().regex(/^\d+$/, 'exit codes are whole numbers'), ExitMapping)
    .optional()
    .describe('outcome per exit code; 0 is succeeded and anything else failed unless mapped'),
});

export const HttpConfig = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
  url: Template,
  headers: z.record(z.string(), Template).optional(),
  body: Expression.optional().describe('JSONata expression giving the JSON body'),
  expectStatus: z.array(z.number().int().min(100).max(599)).min(1).optional(),
});

export const HumanConfig = z.strictObject({
  task: z.enum(HUMAN_TASKS),
  title: Template.min(1),
  instructions: Template.optional(),
  assignee: z.string().min(1).optional(),
  form: JsonSchemaValue.optional().describe('JSON Schema of the answer a person gives'),
  options: z.array(z.string().min(1)).min(2).optional().describe('choices of a classify task'),
  onExpire: z.enum(ON_EXPIRE).optional(),
});

export const WaitConfig = z
  .strictObject({
    durationMs: z.number().int().nonnegative().optional(),
    until: Expression.optional().describe('JSONata expression giving an ISO 8601 time'),
  })
  .refine((c) => c.durationMs !== undefined || c.until !== undefined, {
    message: 'a wait step needs durationMs or until',
  });

export const EventConfig = z.strictObject({
  name: z.string().min(1).describe('event name, as sent with `weft send NAME`'),
  correlationKey: Expression.describe('JSONata expression giving the key that events must carry'),
});

export const RouterConfig = z.strictObject({});

export const JoinConfig = z
  .strictObject({
    mode: z.enum(['all', 'any', 'atLeast', 'subset']),
    count: z.number().int().positive().optional().describe('N of an atLeast join'),
    branches: z.array(z.string()).min(1).optional().describe('step ids a subset join waits for'),
    onFailedBranch: z.enum(['fail', 'ignore']).optional(),
    onCancelledBranch: z.enum(['fail', 'ignore']).optional(),
  })
  .refine((c) => c.mode !== 'atLeast' || c.count !== undefined, {
    message: 'an atLeast join needs count',
    path: ['count'],
  })
  .refine((c) => c.mode !== 'subset' || c.branches !== undefined, {
    message: 'a subset join needs branches',
    path: ['branches'],
  });

export const MapConfig = z.strictObject({
  items: Expression.describe('JSONata expression giving the list to map over'),
  workflow: WorkflowRef,
  concurrency: z.number().int().positive().optional(),
  onItemFailure: z.enum(['fail', 'continue']).optional(),
});

export const SubworkflowConfig = z.strictObject({ workflow: WorkflowRef });

export const TransformConfig = z.strictObject({
  expression: Expression.describe('JSONata over {input, steps, run}; its value is the output'),
});

export const EndConfig = z.strictObject({
  status: z.enum(['succeeded', 'failed']).optional(),
});
