// The `anthropic` provider: the Messages API. POST {baseUrl}/v1/messages with `x-api-key` and
// `anthropic-version: 2023-06-01`, `stream: false`. The API requires `max_tokens`; without
// config.maxTokens we ask for 1024. It has no JSON switch: the executor's prompt asks for JSON.
import { callProvider, type HttpProviderOptions } from './http-provider.ts';
import { ProviderError, type Completion, type CompletionRequest, type Provider } from './provider.ts';
import { objectAt } from './reply-shape.ts';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';
const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

export class AnthropicProvider implements Provider {
  constructor(private readonly o: HttpProviderOptions) {}

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const body: Record<string, unknown> = {
      model: request.model,
      max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages: [{ role: 'user', content: request.prompt }],
      stream: false,
    };
    if (request.system !== undefined) body['system'] = request.system;
    if (request.temperature !== undefined) body['temperature'] = request.temperature;

    const headers = { 'x-api-key': this.o.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
    return parseMessage(await callProvider('anthropic', this.o, '/v1/messages', headers, body, signal), request.model);
  }
}

/** `{ content: [{ type: 'text', text }], stop_reason, usage: { input_tokens, output_tokens }, model }` */
function parseMessage(json: unknown, requestedModel: string): Completion {
  const root = objectAt(json, []);
  const content = root?.['content'];
  if (root === undefined || !Array.isArray(content)) throw malformed('it has no content list');
  let text = '';
  for (const block of content) {
    const b = objectAt(block, []);
    if (b?.['type'] === 'text' && typeof b['text'] === 'string') text += b['text'];
  }
  if (root['stop_reason'] === 'refusal' && text === '') {
    throw new ProviderError({ code: 'model_refused', message: 'the model refused to answer (stop_reason "refusal")', retryable: true });
  }
  const model = root['model'];
  const completion: Completion = { text, model: typeof model === 'string' && model !== '' ? model : requestedModel };
  const usage = objectAt(json, ['usage']);
  const input = usage?.['input_tokens'];
  const output = usage?.['output_tokens'];
  if (typeof input === 'number' && typeof output === 'number') completion.usage = { inputTokens: input, outputTokens: output };
  if (root['stop_reason'] === 'max_tokens') completion.truncated = true;
  return completion;
}

function malformed(what: string): ProviderError {
  return new ProviderError({
    code: 'malformed_reply',
    message: `anthropic's reply is not a message: ${what}; check that config.baseUrl points at the Anthropic API (without /v1)`,
    retryable: true,
  });
}
