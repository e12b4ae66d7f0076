// A real `weft serve` in this process, on a random port of 127.0.0.1, over a real store in a fresh
// temporary folder whose workspace holds the given workflow files: what the server tests share,
// with JSON `get`/`post` that send the test token.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Serving } from '../../engine/server/serve.ts';

export const TEST_TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
export const TEST_HEADERS = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };

/** The two-step review workflow most server tests run: a transform, then a person's approval. */
export const REVIEW_WORKFLOW = {
  format: 'weft/v1', id: 'review', version: 1, name: 'Review',
  steps: [
    { id: 'draft', kind: 'transform', config: { expression: '{"title": "t"}' } },
    { id: 'check', kind: 'human', config: { task: 'approve', title: 'Check the draft', assignee: 'ana' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'draft', to: 'check' }, { id: 'b', from: 'check', to: 'done' }],
};

export interface Answer {
  status: number;
  body: unknown;
}

export interface InProcessServer {
  root: string;
  workspace: string;
  serving: Serving;
  get(path: string): Promise<Answer>;
  post(path: string, body: unknown): Promise<Answer>;
  /** Stops the server and removes the folder. */
  stop(): Promise<void>;
}

/** Serves `files` (name → JSON content) from a new workspace; `prefix` names the temp folder. */
export async function serveInProcess(prefix: string, files: Record<string, unknown>): Promise<InProcessServer> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(workspace, name), JSON.stringify(content));
  const serving = await serve({ workspace, storePath: join(root, 'weft.db'), port: 0, appDir: undefined, version: '0.0.0-test', token: TEST_TOKEN, env: { ...process.env, WEFT_CONFIG_DIR: join(root, 'config') } });
  const answer = async (r: Response): Promise<Answer> => ({ status: r.status, body: await r.json() });
  return {
    root,
    workspace,
    serving,
    get: async (path) => answer(await fetch(`${serving.url}${path}`, { headers: TEST_HEADERS })),
    post: async (path, body) => answer(await fetch(`${serving.url}${path}`, { method: 'POST', headers: TEST_HEADERS, body: JSON.stringify(body) })),
    stop: async () => {
      await serving.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
