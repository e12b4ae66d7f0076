// A fake LLM provider for CLI and app tests: a real HTTP server on 127.0.0.1 that speaks the
// OpenAI chat-completions shape (POST /chat/completions, bearer key) and the Anthropic messages
// shape (POST /v1/messages, x-api-key), checks the key, and answers with `usage` in every reply,
// so `weft run` against it records real token counts for the price table to price.
import type { ServerResponse } from 'node:http';
import { anthropicReply, json, openAiReply, startFakeProvider, type RecordedRequest } from './engine/executors/agent/fake-provider-server.ts';

export interface FakeLlmOptions {
  /** The key every request must carry (a 401 otherwise). */
  key: string;
  /** The reply's text for a request (default: a small JSON object naming the model). */
  reply?: (prompt: string, model: string) => string;
  /** The tokens a request used (default: one input token per word of its messages, one output token per word of the reply). */
  usage?: (prompt: string, reply: string, model: string) => { inputTokens: number; outputTokens: number };
}

export interface FakeLlm {
  /** http://127.0.0.1:PORT: an openai step's `baseUrl`, and an anthropic step's (without /v1). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const words = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/** The text of a request's messages (and an Anthropic request's `system`), as one prompt. */
function promptOf(body: Record<string, unknown>): string {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as { content?: unknown }[]) : [];
  const parts = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')));
  if (typeof body['system'] === 'string') parts.unshift(body['system']);
  return parts.join('\n');
}

/**
 * Starts the server; close it when done.
 *
 * @example
 * const llm = await startFakeLlm({ key: 'sk-test-1234567890', usage: () => ({ inputTokens: 1200, outputTokens: 300 }) });
 * // a step: { kind: 'agent', config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: llm.url, apiKeyEnv: 'OPENAI_API_KEY', prompt: '...' } }
 */
export async function startFakeLlm(o: FakeLlmOptions): Promise<FakeLlm> {
  const server = await startFakeProvider();
  const reply = o.reply ?? ((_p: string, model: string) => JSON.stringify({ answer: `from ${model}` }));
  const usage = o.usage ?? ((p: string, r: string) => ({ inputTokens: words(p), outputTokens: words(r) }));
  const refuse = (res: ServerResponse, type: string): void => json(res, 401, { type: 'error', error: { type, message: 'invalid api key' } });
  server.answer((r, res) => {
    const model = typeof r.body['model'] === 'string' ? r.body['model'] : 'unknown';
    const prompt = promptOf(r.body);
    const text = reply(prompt, model);
    const used = usage(prompt, text, model);
    if (r.method === 'POST' && r.path === '/chat/completions') {
      if (r.headers['authorization'] !== `Bearer ${o.key}`) return refuse(res, 'invalid_request_error');
      return json(res, 200, openAiReply(text, { model, usage: { prompt_tokens: used.inputTokens, completion_tokens: used.outputTokens, total_tokens: used.inputTokens + used.outputTokens } }));
    }
    if (r.method === 'POST' && r.path === '/v1/messages') {
      if (r.headers['x-api-key'] !== o.key) return refuse(res, 'authentication_error');
      return json(res, 200, anthropicReply(text, { model, usage: { input_tokens: used.inputTokens, output_tokens: used.outputTokens } }));
    }
    json(res, 404, { error: { message: `no route ${r.method} ${r.path}` } });
  });
  return { url: server.url, requests: server.requests, close: () => server.close() };
}
