// The agent executor against a fake OpenAI-compatible server over real HTTP: the request it
// sends, and how every kind of reply (good, rate limited, down, refused, dropped, cut off,
// not JSON) becomes an attempt result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentExecutor } from '../../../../engine/executors/agent/agent-executor.ts';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { failed } from '../attempt-context.ts';
import { until } from '../../until.ts';
import { agentContext, type AgentContextOptions } from './agent-context.ts';
import { json, openAiReply, startFakeProvider, type FakeProviderServer } from './fake-provider-server.ts';

const KEY = 'test-openai-key-0123456789';
let server: FakeProviderServer;
let executor: AgentExecutor;

beforeAll(async () => {
  server = await startFakeProvider();
  executor = new AgentExecutor({ environment: { OPENAI_API_KEY: KEY }, now: () => Date.parse('2025-01-01T00:00:00Z') });
});
afterAll(() => server.close());

const config = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  baseUrl: `${server.url}/v1`,
  prompt: 'Write about {{ input.topic }} as JSON with title and body.',
  ...extra,
});

function run(extra: Record<string, unknown> = {}, options: Partial<AgentContextOptions> = {}): Promise<AttemptResult> {
  return executor.execute(agentContext({ config: config(extra), ...options }));
}

describe('openai provider: the request', () => {
  it('posts a non-streaming chat completion with system and user messages, temperature, max_tokens and JSON mode', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{"title": "T", "body": "B"}')));
    const result = await run(
      { system: 'You write about {{ input.topic }}.', temperature: 0.3, maxTokens: 300 },
      { inputExpression: '{ "topic": input.topic }', input: { topic: 'durable workflows' } },
    );
    expect(result).toMatchObject({ outcome: 'succeeded', output: { title: 'T', body: 'B' } });
    const request = server.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You write about durable workflows.' },
        { role: 'user', content: 'Write about durable workflows as JSON with title and body.\n\nInput:\n{"topic":"durable workflows"}' },
      ],
      stream: false,
      temperature: 0.3,
      max_tokens: 300,
      response_format: { type: 'json_object' },
    });
  });

  it('records provider, served model, usage and latency in meta', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{"title": "T", "body": "B"}')));
    const result = await run();
    expect(result.outcome).toBe('succeeded');
    expect(result.meta).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini-2024-07-18', usage: { inputTokens: 42, outputTokens: 17 } });
    expect(result.meta?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends no input when the step declares no input expression, and omits unset options', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('"ok"')));
    await run({ responseFormat: 'text', prompt: 'Say ok.' });
    expect(server.requests.at(-1)?.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say ok.' }], stream: false });
  });

  it('adds a JSON instruction when a JSON reply is wanted and neither prompt nor system mentions JSON', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{"n": 1}')));
    expect(await run({ prompt: 'Count to one.' })).toMatchObject({ outcome: 'succeeded', output: { n: 1 } });
    const messages = server.requests.at(-1)?.body['messages'];
    expect(messages).toEqual([
      { role: 'system', content: 'Reply with one JSON value and nothing else.' },
      { role: 'user', content: 'Count to one.' },
    ]);
  });

  it('uses the base URL as given, with or without a trailing slash', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{}')));
    await run({ baseUrl: `${server.url}/gateway/openai/` });
    expect(server.requests.at(-1)?.path).toBe('/gateway/openai/chat/completions');
  });
});

describe('openai provider: replies', () => {
  it('accepts JSON inside a fenced code block', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('Here it is:\n```json\n{"title": "T", "body": "B"}\n```\n')));
    expect(await run()).toMatchObject({ outcome: 'succeeded', output: { title: 'T', body: 'B' } });
  });

  it('returns the text as it is with responseFormat text', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('Just prose.')));
    expect(await run({ responseFormat: 'text' })).toMatchObject({ outcome: 'succeeded', output: 'Just prose.' });
    expect(server.requests.at(-1)?.body).not.toHaveProperty('response_format');
  });

  it('fails with invalid_json_reply, retryable, keeping the text as evidence and the usage', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('Sure! Here is my answer: {"title": "T",}')));
    const result = failed(await run());
    expect(result).toMatchObject({ code: 'invalid_json_reply', retryable: true, output: { text: 'Sure! Here is my answer: {"title": "T",}' } });
    expect(result.message).toContain("the model's reply is not JSON");
    expect(result.meta?.usage).toEqual({ inputTokens: 42, outputTokens: 17 });
  });

  it('says so when a reply that is not JSON was cut off at the token limit', async () => {
    const cut = openAiReply('{"title": "A long');
    (cut['choices'] as Array<Record<string, unknown>>)[0]!['finish_reason'] = 'length';
    server.answer((_r, res) => json(res, 200, cut));
    const result = failed(await run({ maxTokens: 5 }));
    expect(result.code).toBe('invalid_json_reply');
    expect(result.message).toContain('stopped at the token limit (config.maxTokens 5)');
  });

  it('fails with malformed_reply when a 200 body is not a chat completion', async () => {
    server.answer((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Gateway login</html>');
    });
    expect(failed(await run())).toMatchObject({ code: 'malformed_reply', retryable: true });
    server.answer((_r, res) => json(res, 200, { data: [] }));
    const result = failed(await run());
    expect(result.code).toBe('malformed_reply');
    expect(result.message).toContain('no choices[0].message');
  });

  it('fails with model_refused when the model refuses', async () => {
    const refusal = openAiReply(null);
    (refusal['choices'] as Array<{ message: Record<string, unknown> }>)[0]!.message['refusal'] = 'I cannot help with that.';
    server.answer((_r, res) => json(res, 200, refusal));
    expect(failed(await run())).toMatchObject({ code: 'model_refused', message: 'the model refused to answer: I cannot help with that.' });
  });
});

describe('openai provider: errors', () => {
  it('maps 429 to rate_limited with retryAfterMs from retry-after in seconds', async () => {
    server.answer((_r, res) => json(res, 429, { error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests' } }, { 'retry-after': '7' }));
    const result = failed(await run());
    expect(result).toMatchObject({ code: 'rate_limited', retryable: true, meta: { provider: 'openai', status: 429, retryAfterMs: 7000 } });
    expect(result.message).toContain('Rate limit reached for gpt-4o-mini');
  });

  it('prefers retry-after-ms, and reads retry-after as an HTTP date', async () => {
    server.answer((_r, res) => json(res, 429, {}, { 'retry-after': '1', 'retry-after-ms': '1250' }));
    expect(failed(await run()).meta?.retryAfterMs).toBe(1250);
    server.answer((_r, res) => json(res, 429, {}, { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }));
    expect(failed(await run()).meta?.retryAfterMs).toBe(30_000);
  });

  it('maps 5xx to provider_unavailable, retryable', async () => {
    server.answer((_r, res) => json(res, 500, { error: { message: 'The server had an error' } }));
    expect(failed(await run())).toMatchObject({ code: 'provider_unavailable', retryable: true, meta: { status: 500 } });
    server.answer((_r, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '2' });
      res.end('upstream overloaded');
    });
    const result = failed(await run());
    expect(result).toMatchObject({ code: 'provider_unavailable', retryable: true, meta: { status: 503, retryAfterMs: 2000 } });
    expect(result.message).toContain('upstream overloaded');
  });

  it('maps 401 and 403 to auth_failed, not retryable', async () => {
    server.answer((_r, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
    expect(failed(await run())).toMatchObject({ code: 'auth_failed', retryable: false, meta: { status: 401 } });
    server.answer((_r, res) => json(res, 403, { error: { message: 'Project does not have access to model' } }));
    expect(failed(await run())).toMatchObject({ code: 'auth_failed', retryable: false, meta: { status: 403 } });
  });

  it("maps other 4xx to bad_request, not retryable, with the provider's message", async () => {
    server.answer((_r, res) => json(res, 404, { error: { message: 'The model `gpt-9` does not exist' } }));
    const result = failed(await run({ model: 'gpt-9' }));
    expect(result).toMatchObject({ code: 'bad_request', retryable: false, meta: { status: 404, model: 'gpt-9' } });
    expect(result.message).toContain('The model `gpt-9` does not exist');
  });

  it('maps a dropped connection to connection_failed, retryable', async () => {
    server.answer((_r, _res, req) => req.socket.destroy());
    const result = failed(await run());
    expect(result).toMatchObject({ code: 'connection_failed', retryable: true });
    expect(result.message).toContain(server.url);
  });

  it('maps a connection dropped in the middle of the body to connection_failed', async () => {
    server.answer((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"choices": [');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(failed(await run())).toMatchObject({ code: 'connection_failed', retryable: true });
  });

  it('reports a dropped connection of an external-effect step as unknown: the request may have arrived', async () => {
    server.answer((_r, _res, req) => req.socket.destroy());
    const result = await run({}, { effect: 'external' });
    expect(result.outcome).toBe('unknown');
  });

  it('reports a refused connection as connection_failed even for an external step: nothing was sent', async () => {
    const refused = await startFakeProvider();
    const url = refused.url;
    await refused.close();
    const result = failed(await run({ baseUrl: url }, { effect: 'external' }));
    expect(result.code).toBe('connection_failed');
    expect(result.message).toContain('ECONNREFUSED');
  });

  it('fails with reply_too_large past the reply cap', async () => {
    const small = new AgentExecutor({ environment: { OPENAI_API_KEY: KEY }, maxReplyBytes: 1000 });
    server.answer((_r, res) => json(res, 200, openAiReply('x'.repeat(5000))));
    const result = failed(await small.execute(agentContext({ config: config() })));
    expect(result).toMatchObject({ code: 'reply_too_large', retryable: false });
  });
});

describe('openai provider: aborts and keys', () => {
  it('returns aborted when the attempt is aborted while the server never answers, and drops the request', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let dropped = false;
    server.answer((_r, _res, req) => {
      req.socket.once('close', () => (dropped = true));
      arrived(); // and never answers
    });
    const controller = new AbortController();
    const pending = run({}, { signal: controller.signal });
    await requestArrived;
    controller.abort(new Error('timed out after 30000 ms'));
    // No clock needed: the server never answers, so only giving up on it settles the attempt.
    const result = failed(await pending);
    expect(result).toMatchObject({ code: 'aborted', retryable: true, message: 'aborted: timed out after 30000 ms', meta: { provider: 'openai' } });
    await until(() => dropped, 'the aborted request to be closed');
  });

  it('does not call the provider when the attempt is already aborted', async () => {
    const before = server.requests.length;
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(failed(await run({}, { signal: controller.signal }))).toMatchObject({ code: 'aborted', message: 'aborted before it started: cancelled' });
    expect(server.requests.length).toBe(before);
  });

  it('fails with missing_api_key, not retryable, naming the variable to set', async () => {
    const bare = new AgentExecutor({ environment: {} });
    const result = failed(await bare.execute(agentContext({ config: config() })));
    expect(result).toMatchObject({ code: 'missing_api_key', retryable: false });
    expect(result.message).toContain('set the environment variable OPENAI_API_KEY');
    const named = failed(await bare.execute(agentContext({ config: config({ apiKeyEnv: 'TEAM_LLM_KEY' }) })));
    expect(named.message).toContain('TEAM_LLM_KEY');
  });

  it('reads the key from the variable named by apiKeyEnv', async () => {
    const team = new AgentExecutor({ environment: { TEAM_LLM_KEY: ' team-key-abcdefgh\n' } });
    server.answer((_r, res) => json(res, 200, openAiReply('{}')));
    await team.execute(agentContext({ config: config({ apiKeyEnv: 'TEAM_LLM_KEY' }) }));
    expect(server.requests.at(-1)?.headers['authorization']).toBe('Bearer team-key-abcdefgh');
  });

  it('fails with invalid_config when a retry variant breaks the config', async () => {
    const result = failed(await run({ temperature: 7 }));
    expect(result).toMatchObject({ code: 'invalid_config', retryable: false });
    expect(result.message).toContain('config.temperature');
  });

  it('fails with expression_error, not retryable, when the prompt cannot be rendered', async () => {
    const result = failed(await run({ prompt: 'Write about {{ $nosuchfunction(input.topic) }}' }));
    expect(result).toMatchObject({ code: 'expression_error', retryable: false });
    expect(result.message).toContain('config.prompt');
  });
});
