// The `openai` provider: the Chat Completions API, which OpenAI and most other servers speak
// (vLLM, llama.cpp, Ollama, LM Studio, OpenRouter, LiteLLM and other gateways).
// POST {baseUrl}/chat/completions with a bearer key, `stream: false`.
import { callProvider, type HttpProviderOptions } from './http-provider.ts';
import { ProviderError, type Completion, type CompletionRequest, type Provider } from './provider.ts';
import { objectAt } from './reply-shape.ts';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export class OpenAiProvider implements Provider {
  constructor(private readonly o: HttpProviderOptions) {}

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const messages: Array<{ role: 'system' | 'user'; content: string }> = [];
    if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
    messages.push({ role: 'user', content: request.prompt });
    const body: Record<string, unknown> = { model: request.model, messages, stream: false };
    if (request.temperature !== undefined) body['temperature'] = request.temperature;
    if (request.maxTokens !== undefined) body['max_tokens'] = request.maxTokens;
    if (request.json) body['response_format'] = { type: 'json_object' };

    const reply = await callProvider('openai', this.o, '/chat/completions', { authorization: `Bearer ${this.o.apiKey}` }, body, signal);
    return parseChatCompletion(reply, request.model);
  }
}

/** `{ choices: [{ message: { content }, finish_reason }], usage: { prompt_tokens, completion_tokens }, model }` */
function parseChatCompletion(json: unknown, requestedModel: string): Completion {
  const choice = objectAt(json, ['choices', 0]);
  const message = objectAt(json, ['choices', 0, 'message']);
  if (choice === undefined || message === undefined) throw malformed('it has no choices[0].message');
  const content = message['content'];
  const refusal = message['refusal'];
  if (typeof refusal === 'string' && refusal !== '' && (content === null || content === undefined || content === '')) {
    throw new ProviderError({ code: 'model_refused', message: `the model refused to answer: ${refusal}`, retryable: true });
  }
  if (typeof content !== 'string') throw malformed('choices[0].message.content is not text');
  const completion: Completion = { text: content, model: modelOf(json, requestedModel) };
  const usage = objectAt(json, ['usage']);
  const input = usage?.['prompt_tokens'];
  const output = usage?.['completion_tokens'];
  if (typeof input === 'number' && typeof output === 'number') completion.usage = { inputTokens: input, outputTokens: output };
  if (choice['finish_reason'] === 'length') completion.truncated = true;
  return completion;
}

function modelOf(json: unknown, requested: string): string {
  const model = objectAt(json, [])?.['model'];
  return typeof model === 'string' && model !== '' ? model : requested;
}

function malformed(what: string): ProviderError {
  return new ProviderError({
    code: 'malformed_reply',
    message: `openai's reply is not a chat completion: ${what}; check that config.baseUrl points at an OpenAI-compatible /v1 endpoint`,
    retryable: true,
  });
}
