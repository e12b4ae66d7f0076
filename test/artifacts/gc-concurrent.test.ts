// `weft gc` under concurrent runs (docs/long-running.md, "Retention"), with real processes: while
// `weft run` children write runs whose outputs are kept by reference, `weft gc` children collect
// the store's artifacts again and again. The artifacts folder starts with old files no run
// references: some hold exactly what the coming runs will output (so a run reuses a file gc is
// deciding about), some are junk; and one old file a finished run references. At the end every
// artifact any run references is there and opens, the old referenced one was kept, and the junk
// is gone.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactRefsIn } from '../../shared/artifacts/artifact-ref.ts';
import { runWeft } from '../cli/run-weft.ts';

const root = mkdtempSync(join(tmpdir(), 'weft-gc-concurrent-'));
const workspace = join(root, 'ws');
const db = join(root, 'store', 'weft.db');
const artifacts = join(root, 'store', 'artifacts');
const env = { WEFT_ARTIFACT_THRESHOLD: '1024', WEFT_CONFIG_DIR: join(root, 'config') };
const KINDS = 4;
const RUNS = 8;

mkdirSync(workspace);
writeFileSync(join(workspace, 'emit.weft.json'), JSON.stringify({
  format: 'weft/v1', id: 'emit', version: 1, name: 'Emit',
  input: { type: 'object', properties: { k: { type: 'integer' } } },
  steps: [
    { id: 'emit', kind: 'transform', config: { expression: '{"k": input.k, "rows": [1..200].{"n": $, "text": "row " & $}}' } },
    { id: 'done', kind: 'end' },
  ],
  edges: [{ id: 'a', from: 'emit', to: 'done' }],
}));

const TWO_DAYS_AGO = new Date(Date.now() - 2 * 86_400_000);

function artifactFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((shard) => readdirSync(join(dir, shard)).filter((f) => /^[0-9a-f]{64}$/.test(f)).map((f) => join(dir, shard, f)));
}

function age(dir: string): void {
  for (const f of artifactFiles(dir)) utimesSync(f, TWO_DAYS_AGO, TWO_DAYS_AGO);
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('weft gc under concurrent runs', () => {
  it('removes only unreferenced old artifacts, losing nothing a run references', async () => {
    // What the coming runs will output, written by runs on another store, copied in unreferenced and old.
    const otherDb = join(root, 'other', 'weft.db');
    for (let k = 0; k < KINDS; k++) {
      const r = await runWeft(['run', 'emit.weft.json', '--input', JSON.stringify({ k }), '--db', otherDb], workspace, { env });
      expect(r.code, r.stderr).toBe(0);
    }
    mkdirSync(artifacts, { recursive: true });
    cpSync(join(root, 'other', 'artifacts'), artifacts, { recursive: true });
    // An old artifact a finished run of this store references.
    const first = await runWeft(['run', 'emit.weft.json', '--input', JSON.stringify({ k: 99 }), '--db', db, '--json'], workspace, { env });
    expect(first.code, first.stderr).toBe(0);
    // Junk: valid artifacts nobody references.
    const junk: string[] = [];
    for (let i = 0; i < 5; i++) {
      const bytes = Buffer.from(JSON.stringify({ junk: i }));
      const sha = createHash('sha256').update(bytes).digest('hex');
      mkdirSync(join(artifacts, sha.slice(0, 2)), { recursive: true });
      writeFileSync(join(artifacts, sha.slice(0, 2), sha), bytes);
      junk.push(sha);
    }
    age(artifacts);
    const before = artifactFiles(artifacts).length;
    expect(before).toBe(KINDS + 1 + junk.length);

    // Runs and collections at once, each a real process.
    let running = true;
    const runs = (async () => {
      const ids: string[] = [];
      const batch = async (from: number): Promise<void> => {
        const rs = await Promise.all([from, from + 1].map((i) => runWeft(['run', 'emit.weft.json', '--input', JSON.stringify({ k: i % KINDS }), '--db', db, '--json'], workspace, { env })));
        for (const r of rs) {
          expect(r.code, r.stderr).toBe(0);
          ids.push((JSON.parse(r.stdout) as { runId: string }).runId);
        }
      };
      try {
        for (let i = 0; i < RUNS; i += 2) await batch(i);
      } finally {
        running = false;
      }
      return ids;
    })();
    const reports: { removed: { sha256: string }[] }[] = [];
    const collections = (async () => {
      while (running || reports.length < 3) {
        const r = await runWeft(['gc', '--grace', '1h', '--json', '--db', db], workspace, { env });
        expect(r.code, r.stderr).toBe(0);
        reports.push(JSON.parse(r.stdout) as { removed: { sha256: string }[] });
      }
    })();
    const [ids] = await Promise.all([runs, collections]);
    const last = await runWeft(['gc', '--grace', '1h', '--json', '--db', db], workspace, { env });
    reports.push(JSON.parse(last.stdout) as { removed: { sha256: string }[] });

    // Every artifact a run references is there, and opens to what the run output.
    const all = [(JSON.parse(first.stdout) as { runId: string }).runId, ...ids];
    for (const [i, runId] of all.entries()) {
      const events = await runWeft(['events', runId, '--json', '--db', db], workspace, { env });
      const refs = artifactRefsIn(JSON.parse(events.stdout));
      expect(refs.length, `run ${runId} keeps its output by reference`).toBeGreaterThan(0);
      for (const ref of refs) expect(existsSync(join(artifacts, ref.$artifact.sha256.slice(0, 2), ref.$artifact.sha256)), `artifact of run ${runId}`).toBe(true);
      const opened = await runWeft(['artifact', 'open', runId, 'steps.emit.attempts[0].output', '--json', '--db', db], workspace, { env });
      expect(opened.code, opened.stderr).toBe(0);
      const value = (JSON.parse(opened.stdout) as { value: { k: number; rows: unknown[] } }).value;
      expect(value.k).toBe(i === 0 ? 99 : (i - 1) % KINDS);
      expect(value.rows).toHaveLength(200);
    }
    // The junk went, in one collection or another.
    const removed = new Set(reports.flatMap((r) => r.removed.map((x) => x.sha256)));
    for (const sha of junk) {
      expect(removed.has(sha)).toBe(true);
      expect(existsSync(join(artifacts, sha.slice(0, 2), sha))).toBe(false);
    }
    expect(artifactFiles(artifacts).length).toBe(KINDS + 1);
  });
});
