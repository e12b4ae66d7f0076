// The workspace policy file and a run's snapshot of it (docs/policies.md): weft.policy.json is
// read when a run starts, on a real SQLite store through the service; the run keeps the rules it
// started under when the file changes; a fork starts under the file as it is then; a file that
// does not parse stops a start with a message naming the file, the place and the fix, and
// writes nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineService } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { loadWorkspacePolicy, PolicyFileError } from '../../engine/policy/load-policy.ts';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import { serviceErrorOf } from '../../engine/service/service-error.ts';
import { storeDigest } from '../store-digest.ts';

const flow = {
  format: 'weft/v1',
  id: 'ask',
  version: 1,
  name: 'Ask',
  steps: [
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Go?' }, deadlineMs: 86_400_000 },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'e1', from: 'review', to: 'done' }],
};

const firstPolicy = { format: 'weft-policy/v1', retries: [{ id: 'few', maxAttempts: 2 }] };
const laterPolicy = { format: 'weft-policy/v1', retries: [{ id: 'fewer', maxAttempts: 1 }] };

let session: EngineSession | undefined;
let dir: string | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function workspace(): Promise<{ dir: string; dbPath: string; service: EngineService; session: EngineSession }> {
  dir = mkdtempSync(join(tmpdir(), 'weft-policy-'));
  writeFileSync(join(dir, 'ask.weft.json'), JSON.stringify(flow));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  const dbPath = join(dir, 'weft.db');
  session = await openEngineSession(dbPath, 'policy test', 'create', env);
  return { dir, dbPath, session, service: new EngineService(session.store, session.engine, dir, env, { actor: 'tester' }) };
}

describe('parsing a policy', () => {
  it('reads a valid policy', () => {
    const r = parsePolicyText(JSON.stringify(firstPolicy));
    expect(r.ok && r.policy.retries?.[0]?.maxAttempts).toBe(2);
  });

  it('names the line and column of a JSON error, and the path and rule of a schema error', () => {
    const broken = parsePolicyText('{\n  "format": "weft-policy/v1",\n  "retries": [,]\n}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.diagnostics[0]).toMatchObject({ code: 'not-json', line: 3 });
    const wrong = parsePolicyText(JSON.stringify({ format: 'weft-policy/v1', retries: [{ id: 'Few Retries', maxAttemps: 2 }] }));
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      const messages = wrong.diagnostics.map((d) => `${d.path} ${d.message}`).join('\n');
      expect(messages).toContain('$.retries[0].id');
      expect(messages).toContain('a rule id is a slug');
      expect(messages).toContain('unknown key "maxAttemps"');
      expect(wrong.diagnostics.every((d) => d.code === 'policy-schema-violation' && d.hint.includes('docs/policies.md'))).toBe(true);
    }
  });
});

describe('the policy a run starts under', () => {
  it('is snapshotted when the run starts, kept when the file changes, and a fork takes the file as it is then', async () => {
    const w = await workspace();
    expect(loadWorkspacePolicy(w.dir)).toBeUndefined();
    const { runId: bare } = await w.service.startRun({ workflow: 'ask', input: {} });
    w.session.engine.flush();
    expect(w.service.runDetail(bare).run.policy).toBeUndefined();

    writeFileSync(join(w.dir, 'weft.policy.json'), JSON.stringify(firstPolicy));
    const { runId } = await w.service.startRun({ workflow: 'ask', input: {} });
    expect(await w.service.settled(runId)).toBe('waiting');
    writeFileSync(join(w.dir, 'weft.policy.json'), JSON.stringify(laterPolicy));
    const held = w.session.engine.model(runId)?.policy;
    expect(held?.rules).toEqual(firstPolicy);
    expect(held?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(w.service.runDetail(runId).run.policy?.rules).toEqual(firstPolicy);

    const fork = w.service.fork(runId, { action: 'fork', from: 'review' });
    w.session.engine.flush();
    expect(w.service.runDetail(fork.runId).run.policy?.rules).toEqual(laterPolicy);
    expect(w.service.runDetail(runId).run.policy?.rules).toEqual(firstPolicy);
  });

  it('refuses to start under a policy file that does not parse, naming the file and the place, and writes nothing', async () => {
    const w = await workspace();
    writeFileSync(join(w.dir, 'weft.policy.json'), '{"format": "weft-policy/v1", "retries": [{"id": "x", "maxAttempts": 0}]}');
    expect(() => loadWorkspacePolicy(w.dir)).toThrow(PolicyFileError);
    w.session.engine.flush();
    const before = storeDigest(w.dbPath);
    const refused = await w.service.startRun({ workflow: 'ask', input: {} }).then(() => undefined, (e: unknown) => e);
    // The CLI and the server report it as bad input (exit 2, HTTP 400).
    expect(serviceErrorOf(refused)?.code).toBe('bad-input');
    expect((refused as Error).message).toContain('weft.policy.json');
    expect((refused as Error).message).toContain('$.retries[0].maxAttempts');
    w.session.engine.flush();
    expect(storeDigest(w.dbPath)).toBe(before);
  });
});
