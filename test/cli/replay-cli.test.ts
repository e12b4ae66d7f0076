// `weft replay` through the real binary on a store `weft run` wrote, the runs' http steps calling
// a counting server on 127.0.0.1 that sees no request during any replay: the verdicts and their
// exit codes (0 same, 1 otherwise), --json parsed by the shared schema, --script answering a step
// the source never called, the batch table with mixed verdicts and its summary line, replays kept
// out of `weft runs` unless asked, and every refusal exiting 2 with one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayBatchResult, ReplayResult } from '../../shared/api/replay-result.ts';
import { countingServer, recordUpdate, type CountingServer } from '../evolution/replay-fixture.ts';
import { runWeft } from './run-weft.ts';
import { startServe } from './serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-replay-'));
const db = join(dir, 'weft.db');
const env = { WEFT_CONFIG_DIR: join(dir, 'config') };
let server: CountingServer;
const runs: Record<string, string> = {};
const files: Record<string, string> = {};

const write = (name: string, value: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
const weft = (...args: string[]) => runWeft([...args, '--db', db], dir, { env });

beforeAll(async () => {
  server = await countingServer();
  files['v1'] = write('record-update.weft.json', recordUpdate(server.base));
  files['fixed'] = write('fixed.weft.json', recordUpdate(server.base, { rejectedStatus: null, version: 2 }));
  files['wider'] = write('wider.weft.json', recordUpdate(server.base, { ok: 'output.n < 100', version: 3 }));
  files['mixed'] = write('mixed.weft.json', recordUpdate(server.base, { ok: 'output.n > 3 and output.n < 25', rejectedStatus: null, version: 4 }));
  files['other'] = write('other.weft.json', { ...recordUpdate(server.base), id: 'other-flow' });
  files['script'] = write('save.script.json', { save: [{ succeed: { status: 200, headers: {}, body: { saved: true } } }] });
  files['badScript'] = write('bad.script.json', { save: [{ nonsense: 1 }] });
  expect((await runWeft(['trust', dir], dir, { env })).code).toBe(0);
  for (const [name, n] of [['ok', 5], ['small', 2], ['bad', 20], ['worse', 30]] as const) {
    const r = await weft('run', files['v1'] ?? '', '--input', JSON.stringify({ n }), '--json');
    runs[name] = (JSON.parse(r.stdout) as { runId: string }).runId;
  }
  expect(server.count).toBe(6); // fetch + save twice, fetch twice
});

afterAll(async () => {
  await server.close();
});

describe('weft replay', () => {
  it('same exits 0 and prints the comparison, then the verdict', async () => {
    const r = await weft('replay', runs['ok'] ?? '', '--against', 'record-update@1');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No difference: the same path, inputs, outcomes and outputs.');
    expect(r.stdout).toMatch(/Replay \S+ of \S+ on record-update@1: same\n$/);
  });

  it('fixed exits 1, with --json in the shared shape', async () => {
    const r = await weft('replay', runs['bad'] ?? '', '--against', 'fixed.weft.json', '--json');
    expect(r.code).toBe(1);
    const result = ReplayResult.parse(JSON.parse(r.stdout));
    expect(result).toMatchObject({ sourceRunId: runs['bad'], verdict: 'fixed', sourceState: 'failed', replayState: 'succeeded', against: { workflowId: 'record-update', file: 'fixed.weft.json' } });
  });

  it('incomplete names the step that needs a recording; --script answers it', async () => {
    const r = await weft('replay', runs['bad'] ?? '', '--against', 'wider.weft.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Needs a recording: step "save" has no recorded attempt in the source run');
    expect(r.stdout).toMatch(/: incomplete\n$/);
    const scripted = await weft('replay', runs['bad'] ?? '', '--against', 'wider.weft.json', '--script', 'save.script.json', '--json');
    expect(ReplayResult.parse(JSON.parse(scripted.stdout)).verdict).toBe('fixed');
  });

  it('a batch prints a row per run and the summary line', async () => {
    const r = await weft('replay', '--runs', 'workflow=record-update', '--against', 'mixed.weft.json');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^run\s+was\s+verdict\s+replay\s+failing step \/ first difference$/);
    expect(lines).toHaveLength(7);
    expect(lines[5]).toBe('Replayed 4 runs on mixed.weft.json: 1 fixed, 1 changed, 1 incomplete, 1 same');
    expect(lines[6]).toBe('billed again: nothing (a replay uses the recorded answers of every step: nothing is billed again)');
    const json = await weft('replay', '--runs', 'workflow=record-update,state=failed,limit=1', '--against', 'mixed.weft.json', '--json');
    const batch = ReplayBatchResult.parse(JSON.parse(json.stdout));
    expect(batch.rows.map((x) => x.sourceRunId)).toEqual([runs['worse']]);
    expect(batch.counts).toEqual({ same: 0, fixed: 1, changed: 0, regressed: 0, incomplete: 0 });
    const atStep = ReplayBatchResult.parse(JSON.parse((await weft('replay', '--runs', 'workflow=record-update,step=rejected', '--against', 'fixed.weft.json', '--json')).stdout));
    expect(atStep.rows.map((x) => [x.sourceRunId, x.failingStep, x.verdict])).toEqual([[runs['worse'], 'rejected', 'fixed'], [runs['bad'], 'rejected', 'fixed']]);
    const byVerdict = Object.fromEntries((ReplayBatchResult.parse(JSON.parse((await weft('replay', '--runs', 'workflow=record-update', '--against', 'mixed.weft.json', '--json')).stdout))).rows.map((x) => [x.sourceRunId, x.verdict]));
    expect(byVerdict).toEqual({ [runs['ok'] ?? '']: 'same', [runs['small'] ?? '']: 'changed', [runs['bad'] ?? '']: 'incomplete', [runs['worse'] ?? '']: 'fixed' });
  });

  it('replays are listed only when asked, and open like any run', async () => {
    const listed = JSON.parse((await weft('runs', '--json')).stdout) as { runs: { id: string }[] };
    expect(new Set(listed.runs.map((x) => x.id))).toEqual(new Set(Object.values(runs)));
    const replays = JSON.parse((await weft('runs', '--kind', 'replay', '--json')).stdout) as { runs: { id: string }[] };
    expect(replays.runs.length).toBeGreaterThan(0);
    const first = replays.runs[0]?.id ?? '';
    const inspect = await weft('inspect', first, '--json');
    expect(inspect.stderr).toBe('');
    expect((JSON.parse(inspect.stdout) as { run: { id: string } }).run.id).toBe(first);
    const events = await weft('events', first, '--json');
    expect(events.code).toBe(0);
    expect(events.stdout).toContain('"replayOf"');
    const compared = await weft('compare', runs['ok'] ?? '', first);
    expect(compared.stderr).toBe('');
    expect(compared.stdout).toContain(`B ${first}: record-update`);
    // A replay is no source of a replay.
    const again = await weft('replay', first, '--against', 'record-update@1');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^weft replay: run \S+ is itself a replay; replay the run it replays instead\n$/);
  });

  it('refuses what it cannot replay with exit 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [['nosuch', '--against', 'record-update@1'], /no run "nosuch"/],
      [[runs['ok'] ?? '', '--against', 'other.weft.json'], /is a run of workflow "record-update", and the definition to replay it on is of "other-flow"/],
      [[runs['ok'] ?? '', '--against', 'record-update@9'], /has no version 9/],
      [[runs['ok'] ?? '', '--against', 'missing.weft.json'], /--against \(missing\.weft\.json\)/],
      [[runs['ok'] ?? '', '--against', 'record-update@1', '--script', 'bad.script.json'], /--script bad\.script\.json: not scripted outcomes by step id \(at \$\.save\.0/],
      [['--runs', 'state=failed', '--against', 'record-update@1'], /--runs needs workflow=ID/],
    ];
    for (const [args, message] of cases) {
      const r = await weft('replay', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('while a weft serve owns the store, the replay is done there (the file sent as content)', async () => {
    const owner = await startServe(['--workspace', dir, '--db', db, '--port', '0'], dir, { ...env, WEFT_DB: undefined, WEFT_LEASE_WAIT_MS: '0' });
    try {
      const r = await weft('replay', runs['bad'] ?? '', '--against', 'fixed.weft.json', '--json');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const result = ReplayResult.parse(JSON.parse(r.stdout));
      expect(result).toMatchObject({ verdict: 'fixed', against: { file: 'fixed.weft.json' } });
      // The server stored it: it lists it among its replays.
      const listed = await owner.api('GET', '/api/runs?kind=replay&limit=500');
      expect((listed.body as { runs: { id: string }[] }).runs.map((x) => x.id)).toContain(result.replayRunId);
      const batch = await weft('replay', '--runs', 'workflow=record-update,state=failed', '--against', 'record-update@1', '--script', 'save.script.json', '--json');
      expect(ReplayBatchResult.parse(JSON.parse(batch.stdout)).counts.same).toBe(2);
    } finally {
      await owner.stop();
    }
  });

  it('no replay called the server', () => {
    expect(server.count).toBe(6);
  });
});
