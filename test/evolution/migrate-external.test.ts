// weft migrate and external effects: an external step with an attempt in flight keeps its config
// (a version that changes it is refused), and a run migrated while that attempt is in flight
// finishes on the new version with the request sent once (a counting server on 127.0.0.1).
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EngineService } from '../../engine/service/engine-service.ts';
import { openEngineSession, type EngineSession } from '../../engine/host/engine-host.ts';
import { foldRun } from '../../engine/runtime/fold-run.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';
import { startServer, type TestServer } from '../engine/executors/http/http-test-server.ts';
import { waitUntil } from '../wait-until.ts';

let session: EngineSession | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

const pay = (base: string, version: number, extra: { body?: string; receipt?: boolean } = {}) => ({
  format: 'weft/v1',
  id: 'pay',
  version,
  name: 'Pay',
  steps: [
    { id: 'start', kind: 'transform', config: { expression: '{ "amount": 5 }' } },
    { id: 'charge', kind: 'http', effect: 'external', output: { type: 'object' }, config: { method: 'PUT', url: `${base}/charge`, body: extra.body ?? 'steps.start.output', expectStatus: [200] } },
    ...(extra.receipt === true ? [{ id: 'receipt', kind: 'transform', config: { expression: '{ "paid": steps.charge.output.status }' } }] : []),
    { id: 'done', kind: 'end' },
    { id: 'lost', kind: 'end', config: { status: 'failed' } },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'charge' },
    { id: 'eu', from: 'charge', to: 'lost', on: 'unknown' },
    ...(extra.receipt === true ? [{ id: 'e2r', from: 'charge', to: 'receipt' }, { id: 'e3r', from: 'receipt', to: 'done' }] : [{ id: 'e2', from: 'charge', to: 'done' }]),
  ],
});

it('refuses to change the config of an external step in flight, and moves the run when it is kept, sending the request once', async () => {
  const held: ServerResponse[] = [];
  server = await startServer((_req, res) => void held.push(res));
  const dir = mkdtempSync(join(tmpdir(), 'weft-migrate-ext-'));
  writeFileSync(join(dir, 'pay.weft.json'), JSON.stringify(pay(server.base, 1)));
  const env = { ...process.env, WEFT_CONFIG_DIR: join(dir, 'config') };
  session = await openEngineSession(join(dir, 'weft.db'), 'migrate test', 'create', env);
  const service = new EngineService(session.store, session.engine, dir, env, { actor: 'tester' });
  const { runId } = await service.startRun({ workflow: 'pay', input: {} });
  await waitUntil(() => held.length === 1, 'the charge request');

  const changed = await service.migrate([runId], { kind: 'definition', workflow: Workflow.parse(pay(server.base, 2, { body: '{ "amount": 6 }', receipt: true })) }, {});
  expect(changed.runs[0]?.plan.refusals.map((r) => [r.code, r.step])).toEqual([['external_config_changed', 'charge']]);
  expect(changed.runs[0]?.applied).toBe(false);

  const kept = await service.migrate([runId], { kind: 'definition', workflow: Workflow.parse(pay(server.base, 3, { receipt: true })) }, {});
  expect(kept.runs[0]?.plan.verdict).toBe('safe');
  expect(kept.runs[0]?.applied).toBe(true);
  held[0]?.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  expect(await service.settled(runId)).toBe('succeeded');
  const m = foldRun(session.store, runId);
  expect(m.workflow.version).toBe(3);
  expect(m.steps.get('receipt')?.output).toEqual({ paid: 200 });
  expect(server.received).toHaveLength(1);
});
