// Who may open a sensitive value (docs/policies.md, "Who opens sensitive values"): the workspace
// policy's sensitive.openers, names and `*` patterns. A real server on 127.0.0.1, then the CLI on
// its store once it stopped: a name on the list opens (and the opening is recorded under it); any other is
// refused, 409 from the API and exit 2 from the CLI, with the rule and the file named, and nothing
// recorded. The file as it is now decides, for runs that started before it changed; a file that
// cannot be read opens nothing; without the section anyone opens; a large value is not governed.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { isOpener } from '../../shared/policy/sensitive-openers.ts';
import { Policy } from '../../shared/policy/policy-schema.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { TEST_HEADERS, type InProcessServer } from '../server/serve-in-process.ts';
import { serveArtifacts } from './serve-artifacts.ts';
import { waitFor } from '../wait-until.ts';

const SECRET = `pt_${randomUUID()}`;
const TOKEN_PATH = 'steps.checkout.attempts[0].output.token';

const WORKFLOW = {
  format: 'weft/v1', id: 'checkout', version: 1, name: 'Checkout',
  steps: [
    { id: 'checkout', kind: 'script', config: { module: 'checkout.mjs' }, output: { type: 'object', properties: { token: { type: 'string', 'x-weft-sensitive': true } } } },
    { id: 'big', kind: 'transform', config: { expression: '{"rows": [1..400].{"n": $, "text": "row " & $}}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'checkout', to: 'big' }, { id: 'b', from: 'big', to: 'done' }],
};

let server: InProcessServer;
let runId: string;

const policy = (body: unknown): void => writeFileSync(join(server.workspace, 'weft.policy.json'), typeof body === 'string' ? body : JSON.stringify(body));
const open = (by: string, path = TOKEN_PATH) => server.post(`/api/runs/${runId}/artifact`, { path, by });
const cli = (by: string) => weftInProcess(['artifact', 'open', runId, TOKEN_PATH, '--by', by, '--db', join(server.root, 'weft.db')], server.workspace);
/** The openings on record: from the server while it runs, then from `weft events`. */
const openings = async (): Promise<{ by: string }[]> => {
  const text = stopped
    ? (await weftInProcess(['events', runId, '--json', '--db', join(server.root, 'weft.db')], server.workspace)).stdout
    : await (await fetch(`${server.serving.url}/api/runs/${runId}/events`, { headers: TEST_HEADERS })).text();
  const page = JSON.parse(text) as { events: { type: string; data: { by: string } }[] };
  return page.events.filter((e) => e.type === 'artifact_opened').map((e) => e.data);
};
let stopped = false;

beforeAll(async () => {
  server = await serveArtifacts('weft-openers-', { 'checkout.weft.json': WORKFLOW }, 4096);
  writeFileSync(join(server.workspace, 'token.txt'), SECRET);
  writeFileSync(join(server.workspace, 'checkout.mjs'), `import { readFileSync } from 'node:fs';\nexport default () => ({ token: readFileSync(new URL('./token.txt', import.meta.url), 'utf8') });\n`);
  // The run starts with no policy: the rights below come from the file as it is when a value is opened.
  const started = await server.post('/api/runs', { workflow: 'checkout', input: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  runId = (started.body as { runId: string }).runId;
  await waitFor(async () => {
    const r = await fetch(`${server.serving.url}/api/runs/${runId}`, { headers: TEST_HEADERS });
    return RunDetail.parse(await r.json()).run.state === 'succeeded' ? true : undefined;
  }, 'the run to succeed');
});

afterAll(async () => {
  await server.stop();
});

describe('sensitive.openers', () => {
  it('matches names exactly and * as any run of characters', () => {
    expect(isOpener(['alice', 'ops-*'], 'alice')).toBe(true);
    expect(isOpener(['alice', 'ops-*'], 'ops-')).toBe(true);
    expect(isOpener(['alice', 'ops-*'], 'ops-kim')).toBe(true);
    expect(isOpener(['alice', 'ops-*'], 'Alice')).toBe(false);
    expect(isOpener(['alice', 'ops-*'], 'devops-kim')).toBe(false);
    expect(isOpener(['a.b', '*@example.org'], 'aXb')).toBe(false);
    expect(isOpener(['a.b', '*@example.org'], 'kim@example.org')).toBe(true);
    expect(isOpener([], 'alice')).toBe(false);
  });

  it('is checked as the policy file is parsed: a blank opener is refused with its path', () => {
    const r = Policy.safeParse({ format: 'weft-policy/v1', sensitive: { openers: ['alice', ' '] } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['sensitive', 'openers', 1]);
    expect(Policy.safeParse({ format: 'weft-policy/v1', sensitive: { openers: ['alice'], who: [] } }).success).toBe(false);
  });

  it('lets a listed name open over the API, on record', async () => {
    policy({ format: 'weft-policy/v1', sensitive: { openers: ['alice', 'ops-*'] } });
    const api = await open('ops-kim');
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    expect(api.body).toMatchObject({ value: SECRET, recorded: true });
    await waitFor(async () => ((await openings()).length === 1 ? true : undefined), 'the opening on record');
    expect((await openings()).map((o) => o.by)).toEqual(['ops-kim']);
  });

  it('refuses any other name, naming the rule and the file, and records nothing', async () => {
    const before = (await openings()).length;
    const api = await open('bob');
    expect(api.status).toBe(409);
    const message = (api.body as { error: { code: string; message: string } }).error;
    expect(message.code).toBe('refused');
    expect(message.message).toContain('policy rule sensitive.openers of ');
    expect(message.message).toContain(join(server.workspace, 'weft.policy.json'));
    expect(message.message).toContain('lets only alice, ops-* open sensitive values, and "bob" is not one of them');
    expect(JSON.stringify(api.body)).not.toContain(SECRET);
    expect((await openings()).length).toBe(before);
  });

  it('does not govern a large value, which is not sensitive: opening it is a read', async () => {
    const api = await open('bob', 'steps.big.attempts[0].output.rows[2]');
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    expect(api.body).toMatchObject({ value: { n: 3, text: 'row 3' }, recorded: false });
  });

  it('lets nobody open with an empty list, and nobody while the file cannot be read', async () => {
    const before = (await openings()).length;
    policy({ format: 'weft-policy/v1', sensitive: { openers: [] } });
    const none = await open('alice');
    expect(none.status).toBe(409);
    expect(JSON.stringify(none.body)).toContain('lets nobody open sensitive values');
    policy('{ "format": "weft-policy/v1", "sensitive": ');
    const broken = await open('alice');
    expect(broken.status).toBe(409);
    expect(JSON.stringify(broken.body)).toContain('is not valid');
    expect(JSON.stringify(broken.body)).toContain('nothing was opened or recorded');
    expect((await openings()).length).toBe(before);
  });

  it('lets anyone open, on record, when the policy has no sensitive section', async () => {
    policy({ format: 'weft-policy/v1' });
    const api = await open('bob');
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    await waitFor(async () => ((await openings()).some((o) => o.by === 'bob') ? true : undefined), 'bob\'s opening on record');
  });

  it('is the same for the CLI: a listed name opens on record, another is refused (exit 2) and nothing is recorded', async () => {
    await server.serving.stop();
    stopped = true;
    policy({ format: 'weft-policy/v1', sensitive: { openers: ['alice', 'ops-*'] } });
    const before = await openings();
    const refused = await cli('devops-kim');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('policy rule sensitive.openers of ');
    expect(refused.stderr).toContain('"devops-kim" is not one of them');
    expect(refused.stderr).not.toContain(SECRET);
    expect(await openings()).toEqual(before);
    const opened = await cli('alice');
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout)).toBe(SECRET);
    expect((await openings()).map((o) => o.by)).toEqual([...before.map((o) => o.by), 'alice']);
  });
});
