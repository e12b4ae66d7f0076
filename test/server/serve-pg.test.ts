// The server over a PostgreSQL store shared by two engines: the real HTTP and WebSocket server
// (createServer, as `weft serve` builds it) on 127.0.0.1, its engine and service on one connection
// to a schema, and a second engine (another worker, registered in weft_workers) on a connection of
// its own to the same schema. /api/health says the store is PostgreSQL, names it without the URL's
// password and lists the live engines; the read routes (runs list, run detail, events, timeline,
// stats: answered by the read worker, which opens the store by its URL) answer for the runs of
// both engines; and WS /api/stream delivers the other engine's commits live (the log tail), each
// event once, in cursor order. Until the engine host opens a PostgreSQL store (openEngineSession),
// the server is built around a Store opened on PostgreSQL (test/fixtures/pg/pg-server.ts);
// `weft serve --store` then builds the same server. The process lane runs it (it starts a PostgreSQL cluster unless WEFT_TEST_PG names one).
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes.ts';
import { transformChain } from '../engine/transform-chain.ts';
import { failWithoutPgUnderCi, openTestPg, pgMissing, SKIP_PG, type TestPg } from '../fixtures/pg/test-pg.ts';
import { servePg, type PgServer, type PgWorker } from '../fixtures/pg/pg-server.ts';
import { waitUntil } from '../wait-until.ts';

const TOKEN = 'serve-pg-token-0123456789abcdefghijklmnopqrstuvwxyz';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const PASSWORD = 'n0t-to-be-shown';

failWithoutPgUnderCi();

describe.skipIf(SKIP_PG)(SKIP_PG ? `skipped: ${pgMissing() ?? ''}` : 'the server over a PostgreSQL store shared by two engines', () => {
  let pg: TestPg;
  let server: PgServer;
  let url: string;
  let other: PgWorker;

  beforeAll(async () => {
    pg = await openTestPg();
    server = await servePg(pg, TOKEN, { 'chain.weft.json': transformChain('chain', 3) }, { password: PASSWORD });
    url = server.url;
    other = server.addWorker();
  });

  afterAll(async () => {
    await server?.close();
    await pg?.close();
  });

  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const reply = await fetch(`${url}${path}`, { headers: HEADERS });
    return { status: reply.status, body: await reply.json() };
  };

  it('says in /api/health that the store is PostgreSQL, without the password, and which engines are alive', async () => {
    const reply = await fetch(`${url}/api/health`, { headers: HEADERS });
    const text = await reply.text();
    expect(reply.status).toBe(200);
    expect(text).not.toContain(PASSWORD);
    const health = ROUTES.health.answer.parse(JSON.parse(text));
    expect(health.storeKind).toBe('postgres');
    expect(health.store).toMatch(/^PostgreSQL database "[^"]+" .*, schema t_[0-9a-f]+$/);
    expect(health.workers?.alive).toBe(2);
    expect(health.workers?.list.map((w) => w.role)).toEqual(['serve', 'worker']);
    expect(health.workers?.list.every((w) => w.pid === process.pid && w.host.length > 0)).toBe(true);
  });

  it("answers the read routes for the runs of both engines, and streams the other engine's commits live", async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/stream`, ['weft', `weft.bearer.${TOKEN}`]);
    const heard: { cursor: number; runId: string }[] = [];
    let subscribed = false;
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { cursor?: number; event?: { runId: string }; subscribed?: unknown };
      if (m.subscribed !== undefined) subscribed = true;
      if (m.cursor !== undefined && m.event !== undefined) heard.push({ cursor: m.cursor, runId: m.event.runId });
    });
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    ws.send(JSON.stringify({ subscribe: { runs: 'all' }, after: 0 }));
    await waitUntil(() => subscribed, 'the stream is live');

    const started = await fetch(`${url}/api/runs`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ workflow: 'chain', input: { from: 'serve' } }) });
    expect(started.status).toBe(201);
    const mine = ((await started.json()) as { runId: string }).runId;
    const theirs = other.run('chain', { from: 'worker' });
    await other.engine.settled(theirs);
    other.engine.flush();

    await waitUntil(async () => {
      const runs = (await get('/api/runs')).body as { runs: { id: string; state: string }[] };
      return runs.runs.filter((r) => r.state === 'succeeded').length === 2;
    }, 'both runs succeed and are listed');
    const list = (await get('/api/runs')).body as { runs: { id: string }[] };
    expect(list.runs.map((r) => r.id).sort()).toEqual([mine, theirs].sort());

    for (const run of [mine, theirs]) {
      const detail = await get(`/api/runs/${run}`);
      expect(detail.status).toBe(200);
      expect(ROUTES['runs.get'].answer.parse(detail.body).run).toMatchObject({ id: run, state: 'succeeded' });
      const events = await get(`/api/runs/${run}/events`);
      expect(events.status).toBe(200);
      expect(ROUTES['runs.events'].answer.parse(events.body).events.length).toBeGreaterThan(5);
      const timeline = await get(`/api/runs/${run}/timeline`);
      expect(timeline.status).toBe(200);
      ROUTES['runs.timeline'].answer.parse(timeline.body);
    }
    const stats = await get('/api/stats/chain');
    expect(stats.status).toBe(200);
    expect(ROUTES.stats.answer.parse(stats.body).runs.length).toBe(2);

    // The stream: every event of the store once, in cursor order, the other engine's included.
    const whole = other.store.readEventsAfter(0, { limit: 10_000 }).map((c) => ({ cursor: c.cursor, runId: c.event.runId }));
    await waitUntil(() => heard.length >= whole.length, `the stream delivers all ${whole.length} events (got ${heard.length})`);
    expect(heard).toEqual(whole);
    expect(heard.some((e) => e.runId === theirs)).toBe(true);
    ws.close();
  });
});
