// The agent executor against a fake Anthropic Messages API over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentExecutor } from '../../../../engine/executors/agent/agent-executor.ts';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { failed } from '../attempt-context.ts';
import { agentContext, type AgentContextOptions } from './agent-context.ts';
import { anthropicReply, json, startFakeProvider, type FakeProviderServer } from './fake-provider-server.ts';

const KEY = 'test-anthropic-key-0123456789';
let server: FakeProviderServer;
const executor = new AgentExecutor({ environment: { ANTHROPIC_API_KEY: KEY } });

beforeAll(async () => {
  server = await startFakeProvider();
});
afterAll(() => server.close());

const config = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: 'anthropic',
  model: 'claude-3-5-haiku-latest',
  baseUrl: server.url,
  system: 'You write clear technical articles.',
  prompt: 'Write about {{ input.topic }}. Reply as JSON with title and body.',
  ...extra,
});

function run(extra: Record<string, unknown> = {}, options: Partial<AgentContextOptions> = {}): Promise<AttemptResult> {
  return executor.execute(agentContext({ config: config(extra), ...options }));
}

describe('anthropic provider', () => {
  it('posts a non-streaming message with x-api-key, anthropic-version, system and the default max_tokens', async () => {
    server.answer((_r, res) => json(res, 200, anthropicReply('{"title": "T", "body": "B"}')));
    const result = await run({ temperature: 0.2 }, { inputExpression: 'input', input: { notes: ['a'] } });
    expect(result).toEqual({
      outcome: 'succeeded',
      output: { title: 'T', body: 'B' },
      meta: { provider: 'anthropic', model: 'claude-3-5-haiku-20241022', usage: { inputTokens: 51, outputTokens: 23 }, latencyMs: expect.any(Number) },
    });
    const request = server.requests.at(-1);
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(KEY);
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.headers['authorization']).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 1024,
      system: 'You write clear technical articles.',
      messages: [{ role: 'user', content: 'Write about durable workflows. Reply as JSON with title and body.\n\nInput:\n{"notes":["a"]}' }],
      stream: false,
      temperature: 0.2,
    });
  });

  it('sends config.maxTokens as max_tokens and joins the text blocks of the reply', async () => {
    server.answer((_r, res) => json(res, 200, { ...anthropicReply(''), content: [{ type: 'text', text: 'Hello, ' }, { type: 'text', text: 'world.' }] }));
    expect(await run({ maxTokens: 64, responseFormat: 'text' })).toMatchObject({ outcome: 'succeeded', output: 'Hello, world.' });
    expect(server.requests.at(-1)?.body['max_tokens']).toBe(64);
  });

  it('fails with invalid_json_reply, keeping the text, and says when the reply hit max_tokens', async () => {
    server.answer((_r, res) => json(res, 200, anthropicReply('{"title": "Dur', { stop_reason: 'max_tokens' })));
    const result = failed(await run());
    expect(result).toMatchObject({ code: 'invalid_json_reply', retryable: true, output: { text: '{"title": "Dur' } });
    expect(result.message).toContain('stopped at the token limit');
  });

  it('maps 429 to rate_limited with retry-after, and 529 (overloaded) to provider_unavailable', async () => {
    server.answer((_r, res) => json(res, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } }, { 'retry-after': '12' }));
    const limited = failed(await run());
    expect(limited).toMatchObject({ code: 'rate_limited', retryable: true, meta: { provider: 'anthropic', status: 429, retryAfterMs: 12_000 } });
    expect(limited.message).toContain('Number of requests has exceeded your rate limit');
    server.answer((_r, res) => json(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    expect(failed(await run())).toMatchObject({ code: 'provider_unavailable', retryable: true, meta: { status: 529 } });
  });

  it('maps 401 to auth_failed and 400 to bad_request, neither retryable', async () => {
    server.answer((_r, res) => json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    expect(failed(await run())).toMatchObject({ code: 'auth_failed', retryable: false });
    server.answer((_r, res) => json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'temperature: range: 0..1' } }));
    const bad = failed(await run({ temperature: 1.5 }));
    expect(bad).toMatchObject({ code: 'bad_request', retryable: false, meta: { status: 400 } });
    expect(bad.message).toContain('temperature: range: 0..1');
  });

  it('maps a dropped connection to connection_failed and a body without content to malformed_reply', async () => {
    server.answer((_r, _res, req) => req.socket.destroy());
    expect(failed(await run())).toMatchObject({ code: 'connection_failed', retryable: true });
    server.answer((_r, res) => json(res, 200, { id: 'x', choices: [] }));
    expect(failed(await run())).toMatchObject({ code: 'malformed_reply', retryable: true });
  });

  it('fails with missing_api_key naming ANTHROPIC_API_KEY', async () => {
    const bare = new AgentExecutor({ environment: { OPENAI_API_KEY: 'not-this-one-123456' } });
    const result = failed(await bare.execute(agentContext({ config: config() })));
    expect(result).toMatchObject({ code: 'missing_api_key', retryable: false });
    expect(result.message).toContain('ANTHROPIC_API_KEY');
  });

  it('returns aborted promptly when the server never answers, and unknown for an external step', async () => {
    for (const effect of ['none', 'external'] as const) {
      let arrived!: () => void;
      const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
      server.answer(() => arrived());
      const controller = new AbortController();
      const pending = run({}, { signal: controller.signal, effect });
      await requestArrived;
      controller.abort(new Error('run cancelled'));
      const result = await pending;
      if (effect === 'none') expect(result).toMatchObject({ outcome: 'failed', code: 'aborted', message: 'aborted: run cancelled' });
      else expect(result).toMatchObject({ outcome: 'unknown', reason: 'aborted: run cancelled' });
    }
  });
});
