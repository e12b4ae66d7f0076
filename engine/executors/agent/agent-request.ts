// Turns an agent step's config and resolved input into the one request of this attempt: the
// `system` and `prompt` templates rendered against the run context, the step's input appended
// as JSON, and, for a JSON reply, an instruction to answer in JSON when the prompt does not
// already ask for it (OpenAI's JSON mode refuses a request whose messages never mention JSON,
// and Anthropic has no JSON switch at all).
import type { z } from 'zod';
import type { AgentConfig } from '../../../shared/definition/step-config.ts';
import type { AttemptContext } from '../executor.ts';
import { inputJson } from '../input-json.ts';
import { HANDOFF_KEY } from '../../../shared/definition/handoff-record.ts';
import type { CompletionRequest } from './provider.ts';
import type { AttemptErrorCode } from '../../../shared/events/attempt-error-codes.ts';

const JSON_INSTRUCTION = 'Reply with one JSON value and nothing else.';
const HANDOFF_INSTRUCTION =
  'Your JSON reply must be an object with a "handoff" key for the step after you: {"completed": [what you completed], "next": "what the next step must do", "constraints": [rules it must keep], "refs": [{"title": "...", "url": "..."}]}.';

export type AgentRequest = { ok: true; request: CompletionRequest } | { ok: false; code: AttemptErrorCode; message: string };

export async function agentRequest(ctx: AttemptContext, config: z.infer<typeof AgentConfig>, model: string): Promise<AgentRequest> {
  const json = (config.responseFormat ?? 'json') === 'json';
  let system: string | undefined;
  let prompt: string;
  try {
    system = config.system === undefined ? undefined : await ctx.expressions.render(config.system);
  } catch (error) {
    return expressionFailed(ctx.stepId, 'system', error);
  }
  try {
    prompt = await ctx.expressions.render(config.prompt);
  } catch (error) {
    return expressionFailed(ctx.stepId, 'prompt', error);
  }
  if (json && !/json/i.test(`${system ?? ''}\n${prompt}`)) {
    system = system === undefined || system.trim() === '' ? JSON_INSTRUCTION : `${system}\n\n${JSON_INSTRUCTION}`;
  }
  // A step that gives a handoff has the record in its output contract: the model is told so.
  if (json && ctx.step.handoff === true) system = system === undefined || system.trim() === '' ? HANDOFF_INSTRUCTION : `${system}\n\n${HANDOFF_INSTRUCTION}`;
  // The input goes to the model only when the step says what it is (an `input` expression):
  // without one, the runtime hands every step the whole run input, which may hold more than
  // the model should see. The prompt template can still quote run input fields. A received
  // handoff always goes (alone, without an `input` expression).
  const shown = ctx.step.input !== undefined ? ctx.input : ctx.step.handoffFrom !== undefined ? receivedOnly(ctx.input) : undefined;
  if (shown !== null && shown !== undefined) {
    const input = inputJson(ctx.stepId, shown);
    if (!input.ok) return input;
    prompt = `${prompt}\n\nInput:\n${input.json}`;
  }
  const request: CompletionRequest = { model, prompt, json };
  if (system !== undefined) request.system = system;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.maxTokens !== undefined) request.maxTokens = config.maxTokens;
  return { ok: true, request };
}

/** Of a receiving step's input without an `input` expression (the whole run input), the record alone. */
function receivedOnly(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !(HANDOFF_KEY in input)) return input;
  const record: unknown = Reflect.get(input, HANDOFF_KEY);
  return { [HANDOFF_KEY]: record };
}

function expressionFailed(stepId: string, key: 'system' | 'prompt', error: unknown): AgentRequest {
  const why = error instanceof Error ? error.message : String(error);
  return { ok: false, code: 'expression_error', message: `agent step "${stepId}": config.${key} could not be rendered: ${why}` };
}
