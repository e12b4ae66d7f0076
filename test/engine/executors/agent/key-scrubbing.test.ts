// Keys never appear in results: not in messages, evidence, outputs or meta, even when a server
// echoes the credential back (some gateways and debug proxies do exactly that).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentExecutor } from '../../../../engine/executors/agent/agent-executor.ts';
import { SecretScrubber } from '../../../../engine/executors/agent/scrub-secrets.ts';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { agentContext } from './agent-context.ts';
import { anthropicReply, json, openAiReply, startFakeProvider, type FakeProviderServer } from './fake-provider-server.ts';

const OPENAI_KEY = 'sk-proj-WEFTFAKEKEY0123456789abcdefXYZ';
const PLAIN_KEY = 'weft-fake-key-7Q9Z4K2M8P'; // not shaped like any known key: caught by value only
const ANTHROPIC_KEY = 'sk-ant-api03-WEFTFAKEKEY9876543210';
const KEYS = [OPENAI_KEY, PLAIN_KEY, ANTHROPIC_KEY];

let server: FakeProviderServer;
const executor = new AgentExecutor({ environment: { OPENAI_API_KEY: OPENAI_KEY, GATEWAY_KEY: PLAIN_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY } });

beforeAll(async () => {
  server = await startFakeProvider();
});
afterAll(() => server.close());

/** Every credential header the request carried, echoed back in the body of the reply. */
const echoed = (headers: Record<string, unknown>): string => `authorization=${String(headers['authorization'])} x-api-key=${String(headers['x-api-key'])}`;

function expectNoKey(result: AttemptResult): void {
  const text = JSON.stringify(result);
  for (const key of KEYS) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(0, 20));
  }
}

const openai = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', model: 'gpt-4o-mini', baseUrl: server.url, prompt: 'Reply in JSON.', ...extra });
const anthropic = () => ({ provider: 'anthropic', model: 'claude-3-5-haiku-latest', baseUrl: server.url, prompt: 'Reply in JSON.' });

describe('API keys never leave the executor', () => {
  it('sends the key to the provider (so the scrubbing below scrubs something real)', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{}')));
    await executor.execute(agentContext({ config: openai() }));
    expect(server.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it.each([
    ['401 JSON error', 401, true],
    ['400 JSON error', 400, true],
    ['429 JSON error', 429, true],
    ['502 plain-text error', 502, false],
  ])('scrubs a key echoed in a %s', async (_name, status, asJson) => {
    for (const config of [openai(), openai({ apiKeyEnv: 'GATEWAY_KEY' }), anthropic()]) {
      server.answer((r, res) => {
        if (asJson) json(res, status, { error: { message: `rejected: ${echoed(r.headers)}`, echo: r.headers } });
        else {
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end(`upstream said no to ${echoed(r.headers)}`);
        }
      });
      const result = await executor.execute(agentContext({ config }));
      expect(result.outcome).toBe('failed');
      if (result.outcome === 'failed') expect(result.message).toContain('[redacted]');
      expectNoKey(result);
    }
  });

  it('scrubs a key echoed in a reply that is not JSON, kept as evidence', async () => {
    for (const config of [openai({ apiKeyEnv: 'GATEWAY_KEY' }), anthropic()]) {
      server.answer((r, res) => {
        const text = `debug: ${echoed(r.headers)}`;
        json(res, 200, config.provider === 'openai' ? openAiReply(text) : anthropicReply(text));
      });
      const result = await executor.execute(agentContext({ config }));
      expect(result).toMatchObject({ outcome: 'failed', code: 'invalid_json_reply' });
      expectNoKey(result);
    }
  });

  it('scrubs a key echoed inside a successful output and a malformed 200 body', async () => {
    server.answer((r, res) => json(res, 200, openAiReply(JSON.stringify({ seen: r.headers['authorization'], nested: [{ k: PLAIN_KEY }] }))));
    const ok = await executor.execute(agentContext({ config: openai({ apiKeyEnv: 'GATEWAY_KEY' }) }));
    expect(ok).toMatchObject({ outcome: 'succeeded', output: { seen: 'Bearer [redacted]', nested: [{ k: '[redacted]' }] } });
    expectNoKey(ok);
    server.answer((r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<pre>${echoed(r.headers)}</pre>`);
    });
    const malformed = await executor.execute(agentContext({ config: openai() }));
    expect(malformed).toMatchObject({ outcome: 'failed', code: 'malformed_reply' });
    expectNoKey(malformed);
  });

  it('scrubs anything shaped like a key or credential from messages, and leaves other text alone', () => {
    const scrub = new SecretScrubber([PLAIN_KEY]);
    expect(scrub.message(`key ${PLAIN_KEY} and sk-abcdefghijklmnop and Bearer abc.def-ghi_jkl`)).toBe('key [redacted] and [redacted] and Bearer [redacted]');
    expect(scrub.message('{"x-api-key": "0123456789abcdef"} api_key=zzzzzzzzzz')).toBe('{"x-api-key": "[redacted]"} api_key=[redacted]');
    expect(scrub.message('use scikit-learn (sk-learn) with max_tokens 1024')).toBe('use scikit-learn (sk-learn) with max_tokens 1024');
    // A key is scrubbed wherever it occurs (keys under 8 characters are refused before use).
    expect(new SecretScrubber(['abc']).message('abcdef')).toBe('[redacted]def');
  });
});
