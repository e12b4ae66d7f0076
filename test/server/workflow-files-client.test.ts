// The app's client for workflow files against the real server: answers parse with the shared
// schemas, a refusal becomes an ApiError with the server's code and path, and an export read by
// the client imports back to the same bytes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../engine/server/serve.ts';
import { ApiError } from '../../renderer/api/api-client.ts';
import { WorkflowFilesClient } from '../../renderer/api/workflow-files-client.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

let root: string;
let workspace: string;
let serving: Serving;
let client: WorkflowFilesClient;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'weft-files-client-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  client = new WorkflowFilesClient(TOKEN, `http://127.0.0.1:${serving.port}`);
});

afterAll(async () => {
  await serving?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('the call was not refused');
}

describe('WorkflowFilesClient', () => {
  it('creates from a template, saves, is refused on a stale hash, exports and imports, lists versions and deletes', async () => {
    const templates = await client.templates();
    expect(templates.templates.map((t) => t.id)).toContain('trip-saga');

    const created = await client.create({ id: 'trip', from: 'trip-saga', name: 'My trip' });
    expect(created.summary).toMatchObject({ id: 'trip', file: 'trip.weft.json', name: 'My trip' });
    const loaded = await client.detail('trip');
    expect(loaded.fileHash).toBe(created.hash);
    expect(loaded.versions).toEqual([{ version: 1, definitionHash: expect.any(String), savedAtMs: expect.any(Number), source: 'saved', runCount: 0 }]);

    const definition = loaded.definition;
    if (definition === null) throw new Error('the created workflow does not read');
    const renamed = { ...definition, description: 'Edited in the app' };
    const result = await client.save(renamed, loaded.fileHash);
    expect(result).toMatchObject({ version: 1, unchanged: false });

    const stale = await refusal(client.save(renamed, loaded.fileHash));
    expect(stale).toMatchObject({ status: 409, code: 'refused', path: 'expectedHash' });

    const exported = await client.exportFile('trip');
    expect(exported).toEqual({ fileName: 'trip.weft.json', text: readFileSync(join(workspace, 'trip.weft.json'), 'utf8') });
    expect((await refusal(client.import(exported.text))).code).toBe('refused');
    expect((await client.import(exported.text, true)).unchanged).toBe(true);

    const v1 = await client.version('trip', 1);
    expect(v1.definition.description).toBe('Edited in the app');

    const moved = await client.rename('trip', 'journey');
    expect(moved.summary.file).toBe('journey.weft.json');
    expect(await client.remove('journey')).toEqual({ deleted: 'journey.weft.json' });
    expect(await refusal(client.detail('journey'))).toMatchObject({ status: 404, code: 'not-found' });
  });

  it('turns a 400 into an ApiError with the path of the bad field', async () => {
    writeFileSync(join(workspace, 'note.txt'), 'unrelated');
    const bad = await refusal(client.import('{"format": "weft/v1"}'));
    expect(bad).toMatchObject({ status: 400, code: 'bad-input' });
    expect(bad.message).toMatch(/^the imported text is not a workflow: /);
    expect(bad.path).toMatch(/^\$\.text/);
  });
});
