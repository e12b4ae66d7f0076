// The three gaps of issue 9 defect 12, over a real HTTP server on 127.0.0.1: a reply field kept in
// the attempt meta (the model name), a key with `"` or `\` that a message quotes (escaped), and a
// short key (issue 19: refused when shorter than 8 characters; any key is scrubbed wherever it occurs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentExecutor } from '../../../../engine/executors/agent/agent-executor.ts';
import { SecretScrubber } from '../../../../engine/executors/agent/scrub-secrets.ts';
import type { AttemptResult } from '../../../../engine/executors/executor.ts';
import { agentContext } from './agent-context.ts';
import { anthropicReply, json, openAiReply, startFakeProvider, type FakeProviderServer } from './fake-provider-server.ts';

const PLAIN_KEY = 'weft-fake-key-7Q9Z4K2M8P';
const QUOTED_KEY = 'weft"fake\\key-0123456789'; // a `"` and a `\`: JSON quoting changes it
const SHORT_KEY = 'k3Y9z'; // shorter than the 8 characters a key must have

let server: FakeProviderServer;
const executor = new AgentExecutor({ environment: { GATEWAY_KEY: PLAIN_KEY, QUOTED_KEY, SHORT_KEY, ANTHROPIC_API_KEY: PLAIN_KEY } });

beforeAll(async () => {
  server = await startFakeProvider();
});
afterAll(() => server.close());

const openai = (apiKeyEnv: string) => ({ provider: 'openai', model: 'gpt-4o-mini', baseUrl: server.url, prompt: 'Reply in JSON.', apiKeyEnv });

/** The key in every form a recorded text could hold it: raw, and quoted as JSON (once and twice). */
function expectNoKey(result: AttemptResult, key: string): void {
  const text = JSON.stringify(result);
  const once = JSON.stringify(key).slice(1, -1);
  expect(text).not.toContain(key);
  expect(text).not.toContain(once);
  expect(text).not.toContain(JSON.stringify(once).slice(1, -1));
}

describe('every string recorded from a provider exchange is scrubbed', () => {
  it('scrubs a key the provider echoes in the model name, kept in the attempt meta', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply('{"ok": true}', { model: `gpt-4o-mini/${PLAIN_KEY}` })));
    const r = await executor.execute(agentContext({ config: openai('GATEWAY_KEY') }));
    expect(r).toMatchObject({ outcome: 'succeeded', meta: { model: 'gpt-4o-mini/[redacted]' } });
    expectNoKey(r, PLAIN_KEY);
    server.answer((_r, res) => json(res, 200, anthropicReply('not json', { model: `claude/${PLAIN_KEY}` })));
    const failed = await executor.execute(agentContext({ config: { provider: 'anthropic', model: 'claude-3-5-haiku-latest', baseUrl: server.url, prompt: 'x' } }));
    expect(failed).toMatchObject({ outcome: 'failed', code: 'invalid_json_reply', meta: { model: 'claude/[redacted]' } });
    expectNoKey(failed, PLAIN_KEY);
  });

  it('scrubs a key with a quote and a backslash from a malformed reply the message quotes', async () => {
    server.answer((r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<pre>${String(r.headers['authorization'])}</pre>`);
    });
    const r = await executor.execute(agentContext({ config: openai('QUOTED_KEY') }));
    expect(server.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${QUOTED_KEY}`);
    expect(r).toMatchObject({ outcome: 'failed', code: 'malformed_reply' });
    if (r.outcome === 'failed') expect(r.message).toContain('[redacted]');
    expectNoKey(r, QUOTED_KEY);
  });

  it('scrubs a key with a quote from an output and an error body that hold it JSON-escaped', async () => {
    server.answer((_r, res) => json(res, 200, openAiReply(JSON.stringify({ note: `escaped: ${JSON.stringify(QUOTED_KEY)}` }))));
    const ok = await executor.execute(agentContext({ config: openai('QUOTED_KEY') }));
    expect(ok.outcome).toBe('succeeded');
    expectNoKey(ok, QUOTED_KEY);
    server.answer((_r, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`bad key ${JSON.stringify(QUOTED_KEY)}`);
    });
    const bad = await executor.execute(agentContext({ config: openai('QUOTED_KEY') }));
    expect(bad.outcome).toBe('failed');
    expectNoKey(bad, QUOTED_KEY);
  });

  it('refuses a key shorter than 8 characters before sending anything, naming the variable and not the key', async () => {
    const before = server.requests.length;
    const r = await executor.execute(agentContext({ config: openai('SHORT_KEY') }));
    expect(r).toMatchObject({ outcome: 'failed', code: 'invalid_api_key', retryable: false });
    if (r.outcome === 'failed') expect(r.message).toMatch(/the environment variable SHORT_KEY holds a key of 5 characters; keys shorter than 8 characters are refused/);
    expectNoKey(r, SHORT_KEY);
    expect(server.requests).toHaveLength(before);
  });

  it('scrubs every occurrence of a key, also inside a longer word', () => {
    const scrub = new SecretScrubber(['s3cr3t!']);
    expect(scrub.message('prefix-s3cr3t!-suffix and s3cr3t!')).toBe('prefix-[redacted]-suffix and [redacted]');
    expect(scrub.exactValue({ [`k-s3cr3t!`]: ['xs3cr3t!x'] })).toEqual({ 'k-[redacted]': ['x[redacted]x'] });
  });

  it('scrubs the escaped form of a key in the scrubber itself', () => {
    const scrub = new SecretScrubber([QUOTED_KEY]);
    expect(scrub.message(`a ${JSON.stringify(QUOTED_KEY)} b`)).toBe('a "[redacted]" b');
    expect(scrub.exactValue({ t: `${JSON.stringify(JSON.stringify(QUOTED_KEY))}` })).toEqual({ t: '"\\"[redacted]\\""' });
  });
});
