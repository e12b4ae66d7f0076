// A provider key too short to scrub safely (issue 19, item 5): a key under 8 characters was
// replaced only where it stood as a whole token, so `prefix-s3cr3t!-suffix` in a reply reached the
// events, `weft inspect --json` and the store. Such a key is now refused before anything is sent
// (`invalid_api_key`, the message naming the variable, never the key), and every occurrence of a
// key that is used is scrubbed. The provider is a real HTTP server on 127.0.0.1 that echoes the
// key inside a longer word, in its output and in its model name.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, openAiReply, startFakeProvider, type FakeProviderServer } from '../engine/executors/agent/fake-provider-server.ts';
import { runWeft } from './run-weft.ts';

const SHORT_KEY = 's3cr3t!';
let server: FakeProviderServer;

beforeAll(async () => {
  server = await startFakeProvider();
  server.answer((r, res) => {
    const key = String(r.headers['authorization']).replace(/^Bearer /, '');
    json(res, 200, openAiReply(JSON.stringify({ echo: `prefix-${key}-suffix` }), { model: `gpt-4o-mini-${key}-x` }));
  });
});
afterAll(() => server.close());

/** Every file of the store's folder, and the command outputs, as text. */
function everything(dir: string, outputs: string[]): string {
  const files = readdirSync(dir).filter((f) => f.startsWith('weft.db')).map((f) => readFileSync(join(dir, f)).toString('latin1'));
  return [...files, ...outputs].join('\n');
}

it('a key shorter than 8 characters is refused before it is sent, and reaches no event, output or store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-short-key-'));
  writeFileSync(join(dir, 'ask.weft.json'), JSON.stringify({
    format: 'weft/v1', id: 'ask', version: 1, name: 'Ask',
    steps: [
      { id: 'ask', kind: 'agent', config: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: server.url, prompt: 'Reply in JSON.', apiKeyEnv: 'SHORT_KEY' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [{ id: 'e', from: 'ask', to: 'done' }],
  }));
  const db = join(dir, 'weft.db');
  const env = { SHORT_KEY, WEFT_CONFIG_DIR: join(dir, 'config') };
  const run = await runWeft(['run', 'ask.weft.json', '--db', db, '--json'], dir, { env });
  const { runId } = JSON.parse(run.stdout) as { runId: string };
  const inspect = await runWeft(['inspect', runId, '--json', '--db', db], dir, { env });
  const events = await runWeft(['events', runId, '--json', '--db', db], dir, { env });
  expect(everything(dir, [run.stdout, run.stderr, inspect.stdout, events.stdout])).not.toContain(SHORT_KEY);
  expect(run.code, run.stderr).toBe(1);
  expect(server.requests).toHaveLength(0);
  const failed = (JSON.parse(events.stdout) as { events: { type: string; data: { error?: { code: string; message: string } } }[] }).events.find((e) => e.type === 'attempt_failed');
  expect(failed?.data.error?.code).toBe('invalid_api_key');
  expect(failed?.data.error?.message).toMatch(/the environment variable SHORT_KEY holds a key of 7 characters; keys shorter than 8 characters are refused/);
});
