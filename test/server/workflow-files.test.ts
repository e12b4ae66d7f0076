// Workflow files over real HTTP: `weft serve` on a random port over a real store and a real
// workspace folder. Saving writes canonical bytes (the same bytes for an unchanged save), keeps
// layout, bumps a version that has run and keeps the number of one that has not; a file changed
// on disk is not overwritten; create, rename, import, export and delete work on real files; every
// write route wants the token.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Serving } from '../../engine/server/serve.ts';
import { serveInProcess, TEST_HEADERS, type InProcessServer } from './serve-in-process.ts';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { DeleteWorkflowResult, TemplateList, WorkflowFileResult } from '../../shared/api/workflow-files.ts';
import { WorkflowDetail, WorkflowVersionDetail } from '../../shared/api/workflow-views.ts';
import { formatDefinition } from '../../shared/definition/format-definition.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';

const headers = TEST_HEADERS;
const examples = join(import.meta.dirname, '../../examples');

let server: InProcessServer;
let workspace: string;
let serving: Serving;

// Config keys out of their schema's order (url before method): the file has them in that order.
const review = {
  format: 'weft/v1',
  id: 'review',
  version: 1,
  name: 'Review',
  steps: [
    { id: 'draft', kind: 'transform', config: { expression: '{"title": "t"}' } },
    { id: 'send', kind: 'http', config: { url: 'http://127.0.0.1:9/x', method: 'POST', body: 'steps.draft.output' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'draft', to: 'done' }, { id: 'b', from: 'draft', to: 'send', when: 'false' }, { id: 'c', from: 'send', to: 'done' }],
};

interface Reply {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

async function call(method: string, path: string, body?: unknown, auth = true): Promise<Reply> {
  const r = await fetch(`http://127.0.0.1:${serving.port}${path}`, {
    method,
    headers: { ...(auth ? { authorization: headers.authorization } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: r.status, body: parsed, text, headers: r.headers };
}

const sha = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');
const fileOf = (name: string): string => readFileSync(join(workspace, name), 'utf8');
const errorOf = (reply: Reply) => ApiErrorBody.parse(reply.body).error;
const saved = (reply: Reply): WorkflowFileResult => {
  expect(reply.status, reply.text).toBeLessThan(300);
  return WorkflowFileResult.parse(reply.body);
};
const detail = async (id: string): Promise<WorkflowDetail> => WorkflowDetail.parse((await call('GET', `/api/workflows/${id}`)).body);
/** The file's workflow as JSON, in its own key order (what the editor holds). */
const raw = (name: string): Workflow => JSON.parse(fileOf(name)) as Workflow;

beforeAll(async () => {
  server = await serveInProcess('weft-server-files-', { 'review.weft.json': review });
  ({ workspace, serving } = server);
});

afterAll(async () => {
  await server?.stop();
});

describe('saving a workflow (PUT /api/workflows/:id)', () => {
  it('writes the canonical text, and the same bytes for an unchanged save, whether the editor sends the file’s order or the schema’s', async () => {
    const before = await detail('review');
    expect(before.fileHash).toBe(sha(readFileSync(join(workspace, 'review.weft.json'))));
    const first = saved(await call('PUT', '/api/workflows/review', { definition: review, expectedHash: before.fileHash }));
    const text = fileOf('review.weft.json');
    expect(text).toBe(formatDefinition(review as Workflow));
    expect(text).toContain('"config": { "method": "POST", "url": "http://127.0.0.1:9/x", "body": "steps.draft.output" }');
    expect(first).toMatchObject({ version: 1, unchanged: false, hash: sha(text), summary: { id: 'review', file: 'review.weft.json', errors: 0 } });
    expect(first.bumped).toBeUndefined();

    const mtime = statSync(join(workspace, 'review.weft.json')).mtimeMs;
    const again = saved(await call('PUT', '/api/workflows/review', { definition: raw('review.weft.json'), expectedHash: first.hash }));
    expect(again).toMatchObject({ version: 1, unchanged: true, hash: first.hash });
    expect(fileOf('review.weft.json')).toBe(text);
    // The editor holds what the server's WorkflowDetail gives: the schema's parse of the file.
    const fromDetail = (await detail('review')).definition;
    expect(saved(await call('PUT', '/api/workflows/review', { definition: fromDetail })).unchanged).toBe(true);
    expect(statSync(join(workspace, 'review.weft.json')).mtimeMs).toBe(mtime);
  });

  it('keeps layout in the file, in step order, rounded to whole pixels', async () => {
    const definition = { ...raw('review.weft.json'), layout: { done: { x: 400.4, y: 0 }, draft: { x: 0, y: 10.6 } } };
    const result = saved(await call('PUT', '/api/workflows/review', { definition }));
    expect(result.unchanged).toBe(false);
    expect(fileOf('review.weft.json')).toContain('  "layout": {\n    "draft": { "x": 0, "y": 11 },\n    "done": { "x": 400, "y": 0 }\n  }\n}\n');
    expect((await detail('review')).definition?.layout).toEqual({ draft: { x: 0, y: 11 }, done: { x: 400, y: 0 } });
  });

  it('saves a validation error (work in progress), but refuses what is not shaped like a workflow, or another id, with its path', async () => {
    const file = fileOf('review.weft.json');
    const badShape = await call('PUT', '/api/workflows/review', { definition: { ...raw('review.weft.json'), steps: [{ id: 'x', kind: 'teleport' }] } });
    expect(badShape.status).toBe(400);
    expect(errorOf(badShape)).toMatchObject({ code: 'bad-input', path: '$.definition.steps[0].kind' });
    expect(errorOf(badShape).message).toMatch(/^the definition is not a workflow: .*nothing was written/);
    const otherId = await call('PUT', '/api/workflows/review', { definition: { ...raw('review.weft.json'), id: 'other' } });
    expect(errorOf(otherId)).toMatchObject({ code: 'bad-input', path: '$.definition.id' });
    expect(errorOf(otherId).message).toContain('rename the workflow');
    expect(fileOf('review.weft.json')).toBe(file);

    const dangling = { ...raw('review.weft.json'), edges: [...review.edges, { id: 'z', from: 'draft', to: 'nowhere' }] };
    const wip = saved(await call('PUT', '/api/workflows/review', { definition: dangling }));
    expect(wip.summary.errors).toBeGreaterThan(0);
    expect(wip.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    saved(await call('PUT', '/api/workflows/review', { definition: JSON.parse(file) }));
    expect(fileOf('review.weft.json')).toBe(file);
  });

  it('refuses, with 409 and the file untouched, a save over a file changed on disk since it was loaded', async () => {
    const loaded = await detail('review');
    const changed = fileOf('review.weft.json').replace('"name": "Review"', '"name": "Reviewed by hand"');
    writeFileSync(join(workspace, 'review.weft.json'), changed);
    const reply = await call('PUT', '/api/workflows/review', { definition: { ...raw('review.weft.json'), name: 'Mine' }, expectedHash: loaded.fileHash });
    expect(reply.status).toBe(409);
    expect(errorOf(reply)).toMatchObject({ code: 'refused', path: 'expectedHash' });
    expect(errorOf(reply).message).toMatch(/review\.weft\.json changed on disk since the editor loaded it .*nothing was written/);
    expect(fileOf('review.weft.json')).toBe(changed);
    const bad = await call('PUT', '/api/workflows/review', { definition: raw('review.weft.json'), expectedHash: 'abc' });
    expect(errorOf(bad)).toMatchObject({ code: 'bad-input', path: '$.expectedHash' });
    saved(await call('PUT', '/api/workflows/review', { definition: { ...raw('review.weft.json'), name: 'Review' } }));
  });

  it('saves a version that has run as it is when only layout changed, and otherwise as version N+1, saying so', async () => {
    const started = await call('POST', '/api/runs', { workflow: 'review', input: {} });
    expect(started.status, started.text).toBe(201);
    const runVersions = (await detail('review')).versions;
    expect(runVersions.map((v) => [v.version, v.source, v.runCount])).toEqual([[1, 'run', 1]]);

    const moved = saved(await call('PUT', '/api/workflows/review', { definition: { ...raw('review.weft.json'), layout: { draft: { x: 50, y: 50 } } } }));
    expect(moved).toMatchObject({ version: 1, unchanged: false });
    expect(moved.bumped).toBeUndefined();

    const edited = raw('review.weft.json');
    const steps = edited.steps.map((s) => (s.id === 'draft' ? { ...s, config: { expression: '{"title": "edited"}' } } : s));
    const bumped = saved(await call('PUT', '/api/workflows/review', { definition: { ...edited, steps } }));
    expect(bumped).toMatchObject({ version: 2, bumped: { from: 1, to: 2 }, definition: { version: 2 } });
    expect(raw('review.weft.json').version).toBe(2);
    expect(fileOf('review.weft.json')).toContain('"expression": "{\\"title\\": \\"edited\\"}"');

    const versions = (await detail('review')).versions;
    expect(versions.map((v) => [v.version, v.source, v.runCount])).toEqual([[1, 'run', 1], [2, 'saved', 0]]);
    const v1 = WorkflowVersionDetail.parse((await call('GET', '/api/workflows/review/versions/1')).body);
    expect(v1.definition.steps.find((s) => s.id === 'draft')).toMatchObject({ config: { expression: '{"title": "t"}' } });
    expect(v1.definition.layout).toEqual({ draft: { x: 50, y: 50 } });
  });

  it('saves a saved-but-never-run version again under its own number, replacing it', async () => {
    const edited = raw('review.weft.json');
    expect(edited.version).toBe(2);
    const steps = edited.steps.map((s) => (s.id === 'draft' ? { ...s, config: { expression: '{"title": "again"}' } } : s));
    const result = saved(await call('PUT', '/api/workflows/review', { definition: { ...edited, steps } }));
    expect(result.version).toBe(2);
    expect(result.bumped).toBeUndefined();
    expect((await detail('review')).versions.map((v) => v.version)).toEqual([1, 2]);
    const v2 = WorkflowVersionDetail.parse((await call('GET', '/api/workflows/review/versions/2')).body);
    expect(v2).toMatchObject({ version: 2, source: 'saved', runCount: 0 });
    expect(v2.definition.steps.find((s) => s.id === 'draft')).toMatchObject({ config: { expression: '{"title": "again"}' } });
    expect((await call('GET', '/api/workflows/review/versions/3')).status).toBe(404);
  });

  it('starts a saved version that validates, and refuses one saved with errors', async () => {
    const file = raw('review.weft.json');
    const broken = { ...file, version: 3, edges: [...file.edges, { id: 'z', from: 'draft', to: 'nowhere' }] };
    expect(saved(await call('PUT', '/api/workflows/review', { definition: broken })).summary.errors).toBeGreaterThan(0);
    saved(await call('PUT', '/api/workflows/review', { definition: { ...file, version: 4 } }));

    const refused = await call('POST', '/api/runs', { workflow: 'review', version: 3, input: {} });
    expect(refused.status).toBe(400);
    expect(errorOf(refused).message).toMatch(/^workflow "review" v3 was saved with errors and has never run; nothing was run \(/);
    const started = await call('POST', '/api/runs', { workflow: 'review', version: 2, input: {} });
    expect(started.status, started.text).toBe(201);
    expect((await detail('review')).versions.map((v) => [v.version, v.source, v.runCount])).toEqual([[1, 'run', 1], [2, 'run', 1], [3, 'saved', 0], [4, 'saved', 0]]);
  });
});

describe('creating, renaming, exporting, importing and deleting', () => {
  it('lists the templates: the examples', async () => {
    const list = TemplateList.parse((await call('GET', '/api/templates')).body);
    const ids = readdirSync(examples).filter((f) => f.endsWith('.weft.json')).map((f) => (JSON.parse(readFileSync(join(examples, f), 'utf8')) as Workflow).id);
    expect(list.templates.map((t) => t.id).sort()).toEqual(ids.sort());
    expect(list.templates.find((t) => t.id === 'order-payment')).toMatchObject({ name: expect.any(String), stepCount: 10 });
  });

  it('creates an empty workflow that validates, and one from an example, and refuses a taken id', async () => {
    const empty = await call('POST', '/api/workflows', { id: 'fresh', name: 'Fresh start' });
    expect(empty.status, empty.text).toBe(201);
    expect(WorkflowFileResult.parse(empty.body)).toMatchObject({ version: 1, summary: { id: 'fresh', file: 'fresh.weft.json', errors: 0, name: 'Fresh start' } });
    expect(fileOf('fresh.weft.json')).toBe(formatDefinition(raw('fresh.weft.json')));

    const copy = saved(await call('POST', '/api/workflows', { id: 'my-orders', from: 'order-payment' }));
    const example = JSON.parse(readFileSync(join(examples, 'order-payment.weft.json'), 'utf8')) as Workflow;
    expect(copy.definition).toMatchObject({ id: 'my-orders', version: 1, name: example.name });
    expect(raw('my-orders.weft.json').$schema).toBeUndefined();
    expect(raw('my-orders.weft.json').steps).toEqual(example.steps);
    expect(raw('my-orders.weft.json').layout).toEqual(example.layout);

    const clash = await call('POST', '/api/workflows', { id: 'review' });
    expect(clash.status).toBe(409);
    expect(errorOf(clash).message).toContain('a workflow with id "review" exists already (review.weft.json)');
    writeFileSync(join(workspace, 'junk.weft.json'), 'not json');
    const fileClash = await call('POST', '/api/workflows', { id: 'junk' });
    expect(fileClash.status).toBe(409);
    expect(fileOf('junk.weft.json')).toBe('not json');
    const noTemplate = await call('POST', '/api/workflows', { id: 'nope', from: 'no-such-example' });
    expect(noTemplate.status).toBe(404);
    expect(errorOf(noTemplate).message).toContain('no template "no-such-example"');
    expect(existsSync(join(workspace, 'nope.weft.json'))).toBe(false);
  });

  it('renames a workflow: its file and id; the old id is gone and a clash is refused', async () => {
    const renamed = saved(await call('POST', '/api/workflows/fresh/rename', { to: 'renamed' }));
    expect(renamed.summary).toMatchObject({ id: 'renamed', file: 'renamed.weft.json' });
    expect(existsSync(join(workspace, 'fresh.weft.json'))).toBe(false);
    expect(raw('renamed.weft.json')).toMatchObject({ id: 'renamed', name: 'Fresh start' });
    expect((await call('GET', '/api/workflows/fresh')).status).toBe(404);
    const clash = await call('POST', '/api/workflows/renamed/rename', { to: 'review' });
    expect(clash.status).toBe(409);
    expect(existsSync(join(workspace, 'renamed.weft.json'))).toBe(true);
  });

  it('exports the file’s exact bytes, and importing them gives a byte-identical file', async () => {
    const exported = await fetch(`http://127.0.0.1:${serving.port}/api/workflows/my-orders/file`, { headers });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="my-orders.weft.json"');
    expect(exported.headers.get('content-type')).toMatch(/^application\/json/);
    const bytes = Buffer.from(await exported.arrayBuffer());
    expect(bytes.equals(readFileSync(join(workspace, 'my-orders.weft.json')))).toBe(true);

    const deleted = await call('DELETE', '/api/workflows/my-orders');
    expect(DeleteWorkflowResult.parse(deleted.body)).toEqual({ deleted: 'my-orders.weft.json' });
    expect(existsSync(join(workspace, 'my-orders.weft.json'))).toBe(false);

    const imported = await call('POST', '/api/workflows/import', { text: bytes.toString('utf8') });
    expect(imported.status, imported.text).toBe(201);
    expect(readFileSync(join(workspace, 'my-orders.weft.json')).equals(bytes)).toBe(true);
    expect(WorkflowFileResult.parse(imported.body).hash).toBe(sha(bytes));

    const again = await call('POST', '/api/workflows/import', { text: bytes.toString('utf8') });
    expect(again.status).toBe(409);
    expect(errorOf(again).message).toContain('import with "replace": true');
    const replaced = saved(await call('POST', '/api/workflows/import', { text: bytes.toString('utf8'), replace: true }));
    expect(replaced.unchanged).toBe(true);
  });

  it('imports a file in another format as canonical text', async () => {
    const text = JSON.stringify({ ...review, id: 'compact', name: 'Compact' });
    const imported = saved(await call('POST', '/api/workflows/import', { text }));
    expect(imported.unchanged).toBe(false);
    expect(fileOf('compact.weft.json')).toBe(formatDefinition({ ...review, id: 'compact', name: 'Compact' } as Workflow));
  });

  it('refuses to import text that is not JSON or not a workflow, saying what and where, and writes nothing', async () => {
    const files = readdirSync(workspace).sort();
    const notJson = await call('POST', '/api/workflows/import', { text: '{\n  "format": "weft/v1",\n  "id": "broken",\n' });
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson)).toMatchObject({ code: 'bad-input', path: '$.text' });
    expect(errorOf(notJson).message).toMatch(/^the imported text is not a workflow: not valid JSON at line 4, column 1/);
    const noSteps = await call('POST', '/api/workflows/import', { text: JSON.stringify({ format: 'weft/v1', id: 'stepless', version: 1, name: 'S', edges: [] }) });
    expect(noSteps.status).toBe(400);
    expect(errorOf(noSteps)).toMatchObject({ path: '$.text.steps' });
    expect(errorOf(noSteps).message).toContain('$.steps');
    expect(readdirSync(workspace).sort()).toEqual(files);
  });

  it('deletes the file only: the store keeps its versions', async () => {
    const reply = await call('DELETE', '/api/workflows/review');
    expect(reply.status).toBe(200);
    expect(existsSync(join(workspace, 'review.weft.json'))).toBe(false);
    expect((await call('GET', '/api/workflows/review')).status).toBe(404);
    expect((await call('GET', '/api/workflows/review/versions/1')).status).toBe(200);
    expect((await call('DELETE', '/api/workflows/review')).status).toBe(404);
  });
});

describe('the write routes want the token', () => {
  it.each([
    ['PUT', '/api/workflows/renamed', { definition: {} }],
    ['POST', '/api/workflows', { id: 'sneaky' }],
    ['POST', '/api/workflows/renamed/rename', { to: 'sneaky' }],
    ['POST', '/api/workflows/import', { text: JSON.stringify({ ...review, id: 'sneaky' }) }],
    ['DELETE', '/api/workflows/renamed', undefined],
    ['GET', '/api/workflows/renamed/file', undefined],
    ['GET', '/api/templates', undefined],
  ])('%s %s without a token is 401 and changes nothing', async (method, path, body) => {
    const files = readdirSync(workspace).sort();
    const before = fileOf('renamed.weft.json');
    const reply = await call(method, path, body, false);
    expect(reply.status).toBe(401);
    expect(errorOf(reply).code).toBe('unauthorized');
    expect(readdirSync(workspace).sort()).toEqual(files);
    expect(fileOf('renamed.weft.json')).toBe(before);
  });
});
