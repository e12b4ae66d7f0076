// Every example in examples/ driven end to end through the real `weft` CLI, the way the README's
// "Try the examples" section does it: `weft run`, then `weft tasks` / `weft approve` / `weft reject`
// / `weft send` until the run ends, then `weft inspect` for the path it took. The HTTP examples
// call examples/fake-api.mjs, started in-process on a free port; agents use the mock provider.
// Each test has its own store, so the tests run concurrently; the CLI calls themselves (about
// 0.8 s of CPU each) are limited to one per core (at least two), so that a loaded machine slows
// the suite down rather than timing calls out.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runWeft, type WeftResult } from '../cli/run-weft.ts';

interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: unknown;
  status: number;
  replayed: boolean;
}
interface FakeApi {
  url: string;
  close: () => Promise<void>;
  requests: FakeRequest[];
}
interface RunReply {
  runId: string;
  state: string;
}
interface Inspect {
  run: { id: string; workflowId: string; state: string };
  steps: { id: string; state: string; attempts: { number: number; state: string; variant: number | null; error: { code: string } | null }[] }[];
}
interface Task {
  runId: string;
  stepId: string;
  task: string;
  title: string;
  instructions: string;
}
interface LogEvent {
  seq: number;
  type: string;
  step: string | null;
  data: Record<string, unknown>;
  reason: string | null;
}

/** Exit codes of run-like commands (run, approve, reject, send). */
const EXIT = { succeeded: 0, failed: 1, waiting: 3 } as const;

const EXAMPLES = join(REPO_ROOT, 'examples');
const example = (name: string): string => join(EXAMPLES, `${name}.weft.json`);

let api: FakeApi;
let tmp: string;
let stores = 0;

beforeAll(async () => {
  // Imported by URL: the fake API is a plain .mjs script that the type checker does not see.
  const module = (await import(pathToFileURL(join(EXAMPLES, 'fake-api.mjs')).href)) as { startFakeApi: (port?: number) => Promise<FakeApi> };
  api = await module.startFakeApi(0);
  tmp = mkdtempSync(join(tmpdir(), 'weft-examples-'));
});

afterAll(async () => {
  await api?.close();
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

const slots = { free: Math.max(2, availableParallelism()), waiting: [] as (() => void)[] };

/** Runs `weft ARGS` in a child process once a slot is free; resolves with its exit code and output. */
async function cli(args: readonly string[]): Promise<WeftResult> {
  if (slots.free === 0) await new Promise<void>((resolve) => slots.waiting.push(resolve));
  else slots.free -= 1;
  try {
    return await runWeft(args, REPO_ROOT);
  } finally {
    const next = slots.waiting.shift();
    if (next !== undefined) next();
    else slots.free += 1;
  }
}

/** A `weft` session on a fresh store of its own. */
function session() {
  stores += 1;
  const db = join(tmp, `store-${stores}.db`);
  const weft = async <T>(args: readonly string[], code: number = EXIT.succeeded): Promise<T> => {
    const r = await cli([...args, '--db', db, '--json']);
    if (r.code !== code) throw new Error(`weft ${args.join(' ')} exited ${r.code}, expected ${code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  return {
    run: (name: string, input: object, code: number) => weft<RunReply>(['run', example(name), '--input', JSON.stringify(input)], code),
    tasks: async () => (await weft<{ tasks: Task[] }>(['tasks'])).tasks,
    approve: (runId: string, step: string, code: number) => weft<RunReply>(['approve', runId, step, '--by', 'e2e-lead'], code),
    reject: (runId: string, step: string, reason: string, code: number) => weft<RunReply>(['reject', runId, step, '--reason', reason, '--by', 'e2e-editor'], code),
    send: (name: string, key: string, data: object) => weft<{ status: string; runId?: string; state?: string }>(['send', name, '--key', key, '--data', JSON.stringify(data)]),
    inspect: (runId: string) => weft<Inspect>(['inspect', runId]),
    events: async (runId: string) => (await weft<{ events: LogEvent[] }>(['events', runId])).events,
    fork: (runId: string, from: string, code: number) => weft<RunReply>(['fork', runId, '--from', from], code),
    retry: (runId: string, step: string, code: number) => weft<RunReply>(['retry', runId, step, '--by', 'e2e-ops', '--reason', 'book it again'], code),
    /** A command that must be refused: exit 2, nothing on stdout, the reason on stderr. */
    refused: async (args: readonly string[]): Promise<string> => {
      const r = await cli([...args, '--db', db]);
      if (r.code !== 2) throw new Error(`weft ${args.join(' ')} exited ${r.code}, expected 2 (refused)\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r.stderr;
    },
  };
}

/** The path a run took: each step's state, by step id. */
function path(record: Inspect): Record<string, string> {
  return Object.fromEntries(record.steps.map((s) => [s.id, s.state]));
}

function step(record: Inspect, id: string): Inspect['steps'][number] {
  const s = record.steps.find((x) => x.id === id);
  if (s === undefined) throw new Error(`no step ${id} in run ${record.run.id}`);
  return s;
}

/** The fake API's requests whose path contains `part`, as "METHOD path -> status". */
function calls(part: string): string[] {
  return api.requests.filter((r) => r.path.includes(part)).map((r) => `${r.method} ${r.path} -> ${r.status}${r.replayed ? ' (replayed)' : ''}`);
}

const traveller = { name: 'Ada Lovelace', email: 'ada@example.org' };
const tripInput = (tripId: string, car: { from: string; until: string }, checkIn = '2026-05-04') => ({
  apiBase: api.url,
  tripId,
  traveller,
  flight: { from: 'LHR', to: 'LIS', date: '2026-05-04' },
  hotel: { city: 'Lisbon', checkIn, checkOut: '2026-05-08' },
  car: { pickUp: 'Lisbon airport', ...car },
});

// The tests run at once but queue for the CLI slots above, so a test's clock also counts the
// other tests' turns: on a loaded machine the fork case (14 commands) waited past 120 s behind
// the rest. The clock only stops a broken test, so it allows for the whole file's queue.
const QUEUED_TEST_MS = 600_000;

describe.concurrent('examples run end to end with mock agents and the fake API', { timeout: QUEUED_TEST_MS }, () => {
  it('record-update: validate, write, verify, record the follow-up intention', async ({ expect }) => {
    const weft = session();
    const input = { apiBase: api.url, recordId: 'A17', field: 'status', value: 'archived', baseRevision: 3, recipient: 'R2' };
    const { runId } = await weft.run('record-update', input, EXIT.succeeded);
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('succeeded');
    expect(path(record)).toEqual({
      validate: 'succeeded', write: 'succeeded', verify: 'succeeded', notify_intent: 'succeeded', done: 'succeeded',
      rejected_request: 'skipped', write_failed: 'skipped', reconcile: 'skipped', unresolved: 'skipped',
    });
    const put = api.requests.find((r) => r.method === 'PUT' && r.idempotencyKey === 'A17:status:3');
    expect(put).toMatchObject({ path: '/records/A17', status: 200, body: { fields: { status: 'archived' }, baseRevision: 3 } });
  });

  it('record-update: a stale base revision is refused (412) and nothing is verified', async ({ expect }) => {
    const weft = session();
    const input = { apiBase: api.url, recordId: 'A17', field: 'owner', value: 'ana', baseRevision: 2, recipient: 'R2' };
    const { runId } = await weft.run('record-update', input, EXIT.failed);
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('failed');
    expect(path(record)).toMatchObject({ validate: 'succeeded', write: 'failed', write_failed: 'succeeded', verify: 'skipped', notify_intent: 'skipped', done: 'skipped' });
    expect(step(record, 'write').attempts.map((a) => a.error?.code)).toEqual(['http_412']);
  });

  it('order-payment: a payment that covers the total goes straight to fulfilment', async ({ expect }) => {
    const weft = session();
    const input = { apiBase: api.url, orderId: 'ORD-1001', customerId: 'C-7', items: [{ sku: 'BOOK-42', quantity: 2 }], totalCents: 4990, currency: 'EUR' };
    const { runId } = await weft.run('order-payment', input, EXIT.waiting);
    const sent = await weft.send('payment.received', 'ORD-1001', { paymentId: 'PAY-9', amountCents: 4990, currency: 'EUR' });
    expect(sent).toMatchObject({ status: 'delivered', runId, state: 'succeeded' });
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('succeeded');
    expect(path(record)).toMatchObject({
      create_order: 'succeeded', await_payment: 'succeeded', check_payment: 'succeeded', payment_review: 'skipped',
      fulfil: 'succeeded', shipped: 'succeeded', order_failed: 'skipped', payment_expired: 'skipped', payment_rejected: 'skipped',
    });
    expect(step(record, 'cancel_order').attempts).toEqual([]);
    expect(calls('ORD-1001')).toEqual(['POST /orders/ORD-1001/fulfilment -> 202']);
    expect(api.requests.find((r) => r.idempotencyKey === 'order-ORD-1001')).toMatchObject({ method: 'POST', path: '/orders', status: 201 });
  });

  it('order-payment: a short payment goes to a person; a rejection cancels the order (compensation)', async ({ expect }) => {
    const weft = session();
    const input = { apiBase: api.url, orderId: 'ORD-1002', customerId: 'C-7', items: [{ sku: 'BOOK-42', quantity: 2 }], totalCents: 4990, currency: 'EUR' };
    const { runId } = await weft.run('order-payment', input, EXIT.waiting);
    expect(await weft.send('payment.received', 'ORD-1002', { paymentId: 'PAY-10', amountCents: 2000, currency: 'EUR' })).toMatchObject({ status: 'delivered', state: 'waiting' });
    const [task] = await weft.tasks();
    expect(task).toMatchObject({ runId, stepId: 'payment_review', task: 'approve', title: 'Payment does not match the order' });
    expect(task?.instructions).toContain('the total is 49.90 EUR');
    expect((await weft.reject(runId, 'payment_review', 'paid 20.00 of 49.90 EUR', EXIT.failed)).state).toBe('failed');
    const record = await weft.inspect(runId);
    expect(path(record)).toMatchObject({
      create_order: 'compensated', await_payment: 'succeeded', check_payment: 'succeeded', payment_review: 'rejected',
      fulfil: 'skipped', shipped: 'skipped', payment_rejected: 'succeeded', cancel_order: 'succeeded',
    });
    expect(calls('ORD-1002')).toEqual(['POST /orders/ORD-1002/cancel -> 200']);
  });

  it('trip-saga: books flight, hotel and car, quotes the package, the traveller confirms the price, has the package confirmed and assembles the itinerary', async ({ expect }) => {
    const weft = session();
    const { runId } = await weft.run('trip-saga', tripInput('TRIP-1', { from: '2026-05-04', until: '2026-05-08' }), EXIT.waiting);
    const [task] = await weft.tasks();
    expect(task).toMatchObject({ runId, stepId: 'traveller_confirms', title: 'Confirm trip TRIP-1 at 950 EUR' });
    // Confirmed at once, well within the hour: the quote is not re-checked.
    expect((await weft.approve(runId, 'traveller_confirms', EXIT.succeeded)).state).toBe('succeeded');
    expect((await weft.events(runId)).filter((e) => e.type === 'step_revalidated')).toEqual([]);
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('succeeded');
    expect(path(record)).toMatchObject({
      book_flight: 'succeeded', book_hotel: 'succeeded', book_car: 'succeeded', confirm_trip: 'succeeded', itinerary: 'succeeded', booked: 'succeeded', trip_failed: 'skipped',
    });
    for (const cancel of ['cancel_flight', 'cancel_hotel', 'cancel_car']) expect(step(record, cancel).attempts).toEqual([]);
    // no cancellation (bookings are POSTed to the desk, not to a reference), one confirmation
    expect(calls('TRIP-1')).toEqual(['GET /trips/TRIP-1/quote -> 200', 'PUT /trips/TRIP-1/confirmation -> 200']);
    expect(api.requests.filter((r) => r.idempotencyKey?.startsWith('TRIP-1-')).map((r) => `${r.path} ${r.status}`)).toEqual([
      '/flights/bookings 201', '/hotels/bookings 201', '/cars/bookings 201',
    ]);
  });

  it('trip-saga: a failed car booking cancels the hotel, then the flight, and the run fails', async ({ expect }) => {
    const weft = session();
    // The car desk refuses a rental that ends before it starts (422).
    const { runId } = await weft.run('trip-saga', tripInput('TRIP-2', { from: '2026-05-08', until: '2026-05-04' }), EXIT.failed);
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('failed');
    expect(path(record)).toMatchObject({
      book_flight: 'compensated', book_hotel: 'compensated', book_car: 'failed', itinerary: 'skipped', booked: 'skipped',
      trip_failed: 'succeeded', cancel_hotel: 'succeeded', cancel_flight: 'succeeded',
    });
    expect(step(record, 'book_car').attempts.map((a) => a.error?.code)).toEqual(['http_422']);
    expect(step(record, 'cancel_car').attempts).toEqual([]);
    const events = await weft.events(runId);
    const compensations = events.filter((e) => e.type === 'step_activated' && e.step?.startsWith('cancel_')).map((e) => e.step);
    expect(compensations).toEqual(['cancel_hotel', 'cancel_flight']);
    expect(calls('TRIP-2')).toEqual([
      'DELETE /hotels/bookings/by-reference/TRIP-2-hotel -> 200',
      'DELETE /flights/bookings/by-reference/TRIP-2-flight -> 200',
    ]);
  });

  it('trip-saga: a fork of the compensated run from book_car does not count the cancelled bookings as done: each waits for a decision, keep is refused, and once booked again and the car fails again, the new bookings are cancelled', async ({ expect }) => {
    const weft = session();
    const { runId } = await weft.run('trip-saga', tripInput('TRIP-5', { from: '2026-05-08', until: '2026-05-04' }), EXIT.failed);
    // The first run cancelled the flight and the hotel: the fork waits for a decision on the flight first.
    const fork = await weft.fork(runId, 'book_car', EXIT.waiting);
    expect(fork).toMatchObject({ state: 'needs_attention' });
    expect(fork.runId).not.toBe(runId);
    const held = await weft.inspect(fork.runId);
    expect(step(held, 'book_flight').state).toBe('waiting');
    expect(step(held, 'book_hotel').state).toBe('blocked');
    expect(await weft.refused(['keep', fork.runId, 'book_flight'])).toContain('was undone by "cancel_flight", so it cannot stand');
    const bookings = (): string[] => api.requests.filter((r) => r.method === 'POST' && /^\/(flights|hotels)\/bookings$/.test(r.path) && (r.idempotencyKey ?? '').startsWith('TRIP-5')).map((r) => `${r.path} -> ${r.status}${r.replayed ? ' (replayed)' : ''}`);
    expect(bookings()).toEqual(['/flights/bookings -> 201', '/hotels/bookings -> 201']); // the first run's, and nothing more yet
    expect(await weft.retry(fork.runId, 'book_flight', EXIT.waiting)).toMatchObject({ state: 'needs_attention' });
    // The car desk refuses again: the fork fails, and the bookings it made are cancelled in turn.
    expect(await weft.retry(fork.runId, 'book_hotel', EXIT.failed)).toMatchObject({ state: 'failed' });
    const record = await weft.inspect(fork.runId);
    expect(path(record)).toMatchObject({
      book_flight: 'compensated', book_hotel: 'compensated', book_car: 'failed', confirm_trip: 'skipped',
      trip_failed: 'succeeded', cancel_hotel: 'succeeded', cancel_flight: 'succeeded',
    });
    // No booking evidence of the first run stands in the fork, and its cancellations offset other bookings.
    expect((await weft.events(fork.runId)).filter((e) => e.type === 'evidence_reused').map((e) => e.step)).toEqual([]);
    expect(calls('TRIP-5')).toEqual([
      'DELETE /hotels/bookings/by-reference/TRIP-5-hotel -> 200',
      'DELETE /flights/bookings/by-reference/TRIP-5-flight -> 200',
      'DELETE /hotels/bookings/by-reference/TRIP-5-hotel -> 200',
      'DELETE /flights/bookings/by-reference/TRIP-5-flight -> 200',
    ]);
    // Booked again for real: the fork's keys name its own run, so the desks make new bookings.
    expect(bookings()).toEqual(['/flights/bookings -> 201', '/hotels/bookings -> 201', '/flights/bookings -> 201', '/hotels/bookings -> 201']);
    expect(api.requests.filter((r) => r.idempotencyKey?.startsWith('TRIP-5-car-') === true).map((r) => `${r.status}${r.replayed ? ' replayed' : ''}`)).toEqual(['422', '422']);
  });

  it('trip-saga: a refused confirmation cancels the car, the hotel and the flight, newest first', async ({ expect }) => {
    const weft = session();
    // The trip desk refuses a hotel whose check-in is not the flight date (409).
    const { runId } = await weft.run('trip-saga', tripInput('TRIP-3', { from: '2026-05-04', until: '2026-05-08' }, '2026-05-05'), EXIT.waiting);
    expect((await weft.approve(runId, 'traveller_confirms', EXIT.failed)).state).toBe('failed');
    const record = await weft.inspect(runId);
    expect(path(record)).toMatchObject({
      book_flight: 'compensated', book_hotel: 'compensated', book_car: 'compensated', confirm_trip: 'failed', itinerary: 'skipped',
      trip_failed: 'succeeded', cancel_car: 'succeeded', cancel_hotel: 'succeeded', cancel_flight: 'succeeded',
    });
    expect(step(record, 'confirm_trip').attempts.map((a) => a.error?.code)).toEqual(['http_409']);
    expect(calls('TRIP-3')).toEqual([
      'GET /trips/TRIP-3/quote -> 200',
      'PUT /trips/TRIP-3/confirmation -> 409',
      'DELETE /cars/bookings/by-reference/TRIP-3-car -> 200',
      'DELETE /hotels/bookings/by-reference/TRIP-3-hotel -> 200',
      'DELETE /flights/bookings/by-reference/TRIP-3-flight -> 200',
    ]);
  });

  it('agent-escalation: two bad replies are retried with varied calls, then a lead approves', async ({ expect }) => {
    const weft = session();
    const input = { ticketId: 'T-4711', customerMessage: 'My parcel never arrived.', orderTotal: 49.9, currency: 'EUR' };
    const { runId } = await weft.run('agent-escalation', input, EXIT.waiting);
    const tasks = await weft.tasks();
    expect(tasks.map((t) => `${t.runId} ${t.stepId}`)).toEqual([`${runId} approve`]);
    expect(tasks[0]?.instructions).toContain('The agent proposes refund of 49.9 (confidence 0.86)');
    expect((await weft.approve(runId, 'approve', EXIT.succeeded)).state).toBe('succeeded');
    const record = await weft.inspect(runId);
    expect(path(record)).toEqual({ propose: 'succeeded', approve: 'succeeded', approved: 'succeeded', declined: 'skipped' });
    // Attempt 1: prose instead of JSON; attempt 2 (variant 0, lower temperature): confidence too low;
    // attempt 3 (variant 1, fallback model): a good proposal.
    expect(step(record, 'propose').attempts.map((a) => [a.state, a.variant, a.error?.code ?? null])).toEqual([
      ['failed', null, 'invalid_json_reply'],
      ['failed', 0, 'acceptance_not_met'],
      ['succeeded', 1, null],
    ]);
  });

  it('research-review: an editor approves the first draft', async ({ expect }) => {
    const weft = session();
    const { runId } = await weft.run('research-review', { topic: 'durable workflow engines', audience: 'platform engineers', maxWords: 600 }, EXIT.waiting);
    expect((await weft.tasks()).map((t) => t.stepId)).toEqual(['review']);
    expect((await weft.approve(runId, 'review', EXIT.succeeded)).state).toBe('succeeded');
    expect(path(await weft.inspect(runId))).toEqual({
      research: 'succeeded', draft: 'succeeded', review: 'succeeded', approved: 'succeeded',
      feedback: 'skipped', redraft: 'skipped', rereview: 'skipped', review_expired: 'skipped', gave_up: 'skipped',
    });
  });

  it('research-review: each redraft gets the latest rejection reason, from review and then from rereview, and the revision is approved', async ({ expect }) => {
    const weft = session();
    const reason = 'Explain what happens to idempotency keys when a step is retried.';
    const again = 'Show a retried request with its key.';
    const { runId } = await weft.run('research-review', { topic: 'durable workflow engines', audience: 'platform engineers' }, EXIT.waiting);
    expect((await weft.tasks()).map((t) => t.stepId)).toEqual(['review']);
    expect((await weft.reject(runId, 'review', reason, EXIT.waiting)).state).toBe('waiting');
    const [task] = await weft.tasks();
    expect(task).toMatchObject({ runId, stepId: 'rereview', title: 'Review revised article' });
    expect(task?.instructions).toContain(`Revision 1: Why durable workflows resume instead of repeat. It answers: ${reason}`);
    expect((await weft.reject(runId, 'rereview', again, EXIT.waiting)).state).toBe('waiting');
    expect((await weft.approve(runId, 'rereview', EXIT.succeeded)).state).toBe('succeeded');
    const record = await weft.inspect(runId);
    expect(path(record)).toEqual({
      research: 'succeeded', draft: 'succeeded', review: 'rejected', feedback: 'succeeded', redraft: 'succeeded', rereview: 'succeeded',
      approved: 'succeeded', review_expired: 'skipped', gave_up: 'skipped',
    });
    const redraftInputs = (await weft.events(runId)).filter((e) => e.type === 'attempt_started' && e.step === 'redraft').map((e) => e.data['input']);
    // The mock replies with the same revision each round: the second round revises it, not the first draft.
    expect(redraftInputs).toMatchObject([
      { reason, round: 1, previous: { title: 'Why durable workflows resume instead of repeat', body: expect.stringContaining('replays its log') } },
      { reason: again, round: 2, previous: { body: expect.stringContaining('Effects with idempotency keys are not repeated.') } },
    ]);
  });

  it('parallel-research: two of three searches suffice; the forums branch fails and is ignored', async ({ expect }) => {
    const weft = session();
    const { runId } = await weft.run('parallel-research', { question: 'How durable is SQLite in WAL mode?', since: '2020-01-01' }, EXIT.succeeded);
    const record = await weft.inspect(runId);
    expect(record.run.state).toBe('succeeded');
    expect(path(record)).toEqual({
      plan: 'succeeded', web: 'succeeded', papers: 'succeeded', forums: 'failed', gather: 'succeeded',
      synthesize: 'succeeded', done: 'succeeded', too_few_sources: 'skipped',
    });
    expect(step(record, 'forums').attempts.map((a) => a.error?.code)).toEqual(['rate_limited', 'rate_limited']);
  });
});

describe('the fake API', () => {
  it('answers a repeated Idempotency-Key with the first response and changes nothing', async () => {
    const post = (key: string, body: object) =>
      fetch(`${api.url}/flights/bookings`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
    const booking = { reference: 'IDEM-1-flight', passenger: traveller, from: 'LHR', to: 'LIS', date: '2026-05-04' };
    const first = await post('IDEM-1', booking);
    const again = await post('IDEM-1', booking);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [a, b] = [await first.json(), await again.json()] as { bookingId: string }[];
    expect(b?.bookingId).toBe(a?.bookingId);
    expect((await post('IDEM-2', booking)).status).toBe(409); // a new key for the same reference: a duplicate booking
    expect((await post('IDEM-1', { ...booking, date: '2026-05-05' })).status).toBe(422); // the key reused for another request
  });
});
