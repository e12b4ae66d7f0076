// A sensitive value end to end (docs/long-running.md): a script step reads a secret from a file the
// definition does not hold and outputs it in a field its output schema marks "x-weft-sensitive";
// a later step that declares readsSensitive gets the value at run time, one that does not gets the
// redacted reference. The value appears in no API answer and no CLI output (events, inspect, both
// as text and JSON), and in no byte of the store's files (the db, its -wal and -shm): only in its
// artifact file. An operator opens it on demand (API and CLI), and each opening is an
// artifact_opened event naming who. A large output over WEFT_ARTIFACT_THRESHOLD is kept by
// reference too, and a later step reads into it; the scenario the server makes of the run holds
// that value itself, read from the store's artifacts.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSensitiveRef } from '../../shared/artifacts/artifact-ref.ts';
import { RunDetail } from '../../shared/api/run-detail.ts';
import { RunScenarioView } from '../../shared/api/run-scenario.ts';
import { SENSITIVE_PLACEHOLDER } from '../../shared/artifacts/sensitive-placeholder.ts';
import { weftInProcess } from '../cli/capture-io.ts';
import { TEST_HEADERS, type InProcessServer } from '../server/serve-in-process.ts';
import { serveArtifacts } from './serve-artifacts.ts';
import { waitFor } from '../wait-until.ts';

const SECRET = `DE89-${randomUUID()}`;
const LOOKUP_OUTPUT = 'steps.lookup.attempts[0].output';

const WORKFLOW = {
  format: 'weft/v1', id: 'payout', version: 1, name: 'Payout',
  steps: [
    {
      id: 'lookup', kind: 'script', config: { module: 'vault.mjs' },
      output: { type: 'object', required: ['holder', 'iban'], properties: { holder: { type: 'string' }, iban: { type: 'string', 'x-weft-sensitive': true } } },
    },
    { id: 'pay', kind: 'script', readsSensitive: true, input: '{"iban": steps.lookup.output.iban, "amount": 120}', config: { module: 'bank.mjs' } },
    { id: 'note', kind: 'transform', config: { expression: '{"holder": steps.lookup.output.holder, "iban": steps.lookup.output.iban}' } },
    { id: 'big', kind: 'transform', config: { expression: '{"rows": [1..400].{"n": $, "text": "row " & $}}' } },
    { id: 'pick', kind: 'transform', config: { expression: '{"third": steps.big.output.rows[2].text}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'a', from: 'lookup', to: 'pay' }, { id: 'b', from: 'pay', to: 'note' }, { id: 'c', from: 'note', to: 'big' },
    { id: 'd', from: 'big', to: 'pick' }, { id: 'e', from: 'pick', to: 'done' },
  ],
};

let server: InProcessServer;
let runId: string;
/** Every answer and every CLI output the test saw, searched for the secret at the end. */
const seen: { what: string; text: string }[] = [];

const get = async (path: string): Promise<unknown> => {
  const r = await fetch(`${server.serving.url}${path}`, { headers: TEST_HEADERS });
  const text = await r.text();
  seen.push({ what: `GET ${path}`, text });
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as unknown;
};

const cli = async (args: string[]): Promise<string> => {
  const r = await weftInProcess([...args, '--db', join(server.root, 'weft.db')], server.workspace);
  seen.push({ what: `weft ${args.join(' ')}`, text: r.stdout + r.stderr });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

beforeAll(async () => {
  server = await serveArtifacts('weft-sensitive-', { 'payout.weft.json': WORKFLOW }, 4096);
  writeFileSync(join(server.workspace, 'secret.txt'), SECRET);
  writeFileSync(join(server.workspace, 'vault.mjs'), `import { readFileSync } from 'node:fs';\nexport default () => ({ holder: 'Ann Lee', iban: readFileSync(new URL('./secret.txt', import.meta.url), 'utf8') });\n`);
  writeFileSync(join(server.workspace, 'bank.mjs'), `import { readFileSync } from 'node:fs';\nexport default (input) => ({ paid: input.amount, last4: input.iban.slice(-4), matches: input.iban === readFileSync(new URL('./secret.txt', import.meta.url), 'utf8') });\n`);
  const started = await server.post('/api/runs', { workflow: 'payout', input: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  runId = (started.body as { runId: string }).runId;
  await waitFor(async () => {
    const state = RunDetail.parse(await get(`/api/runs/${runId}`)).run.state;
    expect(['running', 'succeeded']).toContain(state);
    return state === 'succeeded' ? state : undefined;
  }, 'the run to succeed');
});

afterAll(async () => {
  await server.stop();
});

describe('a sensitive value', () => {
  it('reaches the step that reads sensitive values, and only its reference reaches the others', async () => {
    const detail = RunDetail.parse(await get(`/api/runs/${runId}`));
    const out = (id: string): unknown => detail.steps.find((s) => s.id === id)?.attempts[0]?.output;
    expect(out('pay')).toEqual({ paid: 120, last4: SECRET.slice(-4), matches: true });
    const lookup = out('lookup') as { holder: string; iban: unknown };
    expect(lookup.holder).toBe('Ann Lee');
    expect(isSensitiveRef(lookup.iban)).toBe(true);
    const note = out('note') as { iban: unknown };
    expect(note.iban).toEqual(lookup.iban);
    // pay's recorded input keeps the reference: the log names what it read, never the value.
    expect(detail.steps.find((s) => s.id === 'pay')?.attempts[0]?.input).toEqual({ iban: lookup.iban, amount: 120 });
  });

  it('keeps a large output by reference, and a later step reads into it', async () => {
    const detail = RunDetail.parse(await get(`/api/runs/${runId}`));
    const big = detail.steps.find((s) => s.id === 'big')?.attempts[0]?.output as { $artifact: { size: number; sensitive?: true } };
    expect(big.$artifact.size).toBeGreaterThan(4096);
    expect(big.$artifact.sensitive).toBeUndefined();
    expect(detail.steps.find((s) => s.id === 'pick')?.attempts[0]?.output).toEqual({ third: 'row 3' });
    const opened = await server.post(`/api/runs/${runId}/artifact`, { path: 'steps.big.attempts[0].output.rows[2]' });
    expect(opened.body).toMatchObject({ value: { n: 3, text: 'row 3' }, recorded: false });
  });

  it('the scenario the server makes of the run (GET /api/runs/:id/scenario) holds the large value itself, read from the store\'s artifacts, and the placeholder for the secret', async () => {
    const view = RunScenarioView.parse(await get(`/api/runs/${runId}/scenario`));
    const scenario = view.file.scenarios[0];
    const text = JSON.stringify(scenario);
    expect(text).not.toContain('$artifact');
    expect(text).not.toContain(SECRET);
    expect((scenario?.expect.steps?.['big']?.output as { rows: unknown[] }).rows).toHaveLength(400);
    expect(scenario?.steps?.['lookup']?.[0]).toMatchObject({ succeed: { holder: 'Ann Lee', iban: SENSITIVE_PLACEHOLDER } });
  });

  it('is in no API answer and no CLI output', async () => {
    await get(`/api/runs/${runId}/events`);
    await get(`/api/runs/${runId}/events?elide=1024`);
    await get(`/api/runs/${runId}/timeline`);
    await get(`/api/runs/${runId}/value?path=${encodeURIComponent(LOOKUP_OUTPUT)}`);
    await get(`/api/runs/${runId}/value?path=${encodeURIComponent('steps.pay.attempts[0].input')}`);
    await get('/api/runs');
    await cli(['events', runId]);
    await cli(['events', runId, '--json']);
    await cli(['inspect', runId]);
    await cli(['inspect', runId, '--json']);
    await cli(['runs', '--json']);
    for (const s of seen) expect(s.text.includes(SECRET), `${s.what} shows the sensitive value`).toBe(false);
  });

  it('opens on demand, on record, by API and CLI', async () => {
    const opened = await server.post(`/api/runs/${runId}/artifact`, { path: `${LOOKUP_OUTPUT}.iban`, by: 'auditor' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ runId, path: `${LOOKUP_OUTPUT}.iban`, value: SECRET, recorded: true, artifact: { sensitive: true } });
    const events = await waitFor(async () => {
      const page = (await get(`/api/runs/${runId}/events`)) as { events: { type: string; data: Record<string, unknown> }[] };
      const found = page.events.filter((e) => e.type === 'artifact_opened');
      return found.length > 0 ? found : undefined;
    }, 'the opening on record');
    expect(events[0]?.data).toMatchObject({ path: `${LOOKUP_OUTPUT}.iban`, by: 'auditor' });
    // A path that names no reference, and one into the sensitive value, are refused clearly.
    const plain = await server.post(`/api/runs/${runId}/artifact`, { path: `${LOOKUP_OUTPUT}.holder` });
    expect(plain.status).toBe(400);
    expect(JSON.stringify(plain.body)).toContain('is not an artifact reference');
    const missing = await server.post(`/api/runs/${runId}/artifact`, { path: 'steps.nope.attempts[0].output' });
    expect(missing.status).toBe(404);
  });

  it('is in no byte of the store files, only in its artifact', async () => {
    await server.serving.stop();
    const cliOpen = await weftInProcess(['artifact', 'open', runId, `${LOOKUP_OUTPUT}.iban`, '--by', 'cli-auditor', '--db', join(server.root, 'weft.db')], server.workspace);
    expect(cliOpen.code, cliOpen.stderr).toBe(0);
    expect(JSON.parse(cliOpen.stdout)).toBe(SECRET);
    const events = await weftInProcess(['events', runId, '--json', '--db', join(server.root, 'weft.db')], server.workspace);
    expect(events.stdout).toContain('"by":"cli-auditor"');
    expect(events.stdout.includes(SECRET)).toBe(false);
    const needle = Buffer.from(SECRET, 'utf8');
    for (const name of ['weft.db', 'weft.db-wal', 'weft.db-shm']) {
      const file = join(server.root, name);
      if (existsSync(file)) expect(readFileSync(file).includes(needle), `${name} holds the sensitive value`).toBe(false);
    }
    const dir = join(server.root, 'artifacts');
    const holding = readdirSync(dir).flatMap((shard) => readdirSync(join(dir, shard)).map((f) => join(dir, shard, f))).filter((f) => readFileSync(f).includes(needle));
    expect(holding).toHaveLength(1);
  });
});
