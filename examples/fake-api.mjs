// A stand-in for the remote APIs the examples call at {{ input.apiBase }}: a shop (orders,
// fulfilment, cancellation), a records service, flight, hotel and car booking desks, and a mail
// API with an hourly sending quota.
// Dependency-free (node:http), in-memory, for demos and tests only.
//
//   node examples/fake-api.mjs [PORT]      # default 8787; prints the URL, logs each request
//
// Tests start it in-process: `const api = await startFakeApi(0)` gives { url, close, requests }.
//
// Like a real payments or booking API it honours the Idempotency-Key header: a request that
// repeats a key (for the same method and path) gets the first response again, with
// `Idempotent-Replayed: true`, and changes nothing; the same key with a different body is refused
// with 422. That is what makes the examples' retries of external steps safe.
//
// What each example expects (bodies are JSON):
//
//   order-payment
//     POST   /orders                       {orderId, customerId, items, total} -> 201 order {orderId, state: "created", paymentToken, ...}
//                                           409 when the order id exists (sent without the first request's key)
//     GET    /orders/:id                   -> 200 order, 404
//     POST   /orders/:id/fulfilment        {paymentId} -> 202 {orderId, fulfilmentId, paymentId, state: "fulfilling"}
//                                           404 unknown order, 409 cancelled order
//     POST   /orders/:id/cancel            {reason} -> 200 order {state: "cancelled"} (again 200 when already cancelled)
//                                           404 unknown order, 409 order already being fulfilled
//   record-update
//     GET    /records/:id                  -> 200 {id, revision, fields, updatedAt}, 404
//     PUT    /records/:id                  {fields, baseRevision} with If-Match: REVISION
//                                           -> 200 record at revision + 1; 412 when the record is at another
//                                           revision (a stale write), 404 unknown record
//                                           Seeded: A17 at revision 3 {status: "open", owner: "ops", priority: "normal"}
//   trip-saga
//     POST   /flights/bookings             {reference, passenger, from, to, date}
//     POST   /hotels/bookings              {reference, guest, city, checkIn, checkOut}
//     POST   /cars/bookings                {reference, driver, pickUp, from, until}
//                                           -> 201 {bookingId, reference, state: "confirmed", ...}
//                                           409 when the reference is already booked, 422 when the dates are
//                                           backwards (checkOut not after checkIn, until before from): send a car
//                                           with until < from to watch the saga compensate
//     DELETE /{flights,hotels,cars}/bookings/by-reference/:reference
//                                           -> 200 the booking {state: "cancelled"} (again 200 when already
//                                           cancelled); 204 when nothing was booked under that reference
//     GET    /{flights,hotels,cars}/bookings/by-reference/:reference -> 200 booking, 404
//     GET    /trips/:tripId/quote          -> 200 {tripId, total, currency, heldUntil}: the package's price today,
//                                           held for 24 hours (flight 320, hotel 480, car 150 EUR); 409 when a
//                                           booking of the trip (references TRIP-flight, -hotel, -car) is missing
//     PUT    /trips/:tripId/confirmation   {flight, hotel, car} (booking references)
//                                           -> 200 {tripId, state: "confirmed", flight, hotel, car} (again 200 when
//                                           confirmed already); 409 when a booking is missing or cancelled, or the
//                                           hotel check-in is not the flight date: book a hotel from the day after
//                                           the flight to watch the saga cancel the car, the hotel and the flight
//     POST   /reminders                    {to, invoice, amount} -> 201 {id, to, invoice, amount, sentAt}; 429 when
//                                           this clock hour's quota (REMINDERS_PER_HOUR, 3) is used: try again
//                                           next hour (reminder-batch sends what it can and continues later)
//     GET    /reminders                    -> 200 {reminders: [...]}: every reminder sent
//
// Errors are {error: CODE, message}. GET /health answers {ok: true}.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/**
 * Starts the fake API on 127.0.0.1.
 * @param {number} [port] 0 picks a free port.
 * @param {{ log?: (line: string) => void }} [options] log: called with one line per request.
 * @returns {Promise<{ url: string, close: () => Promise<void>, requests: Array<object> }>}
 *   requests: every request received, in order: {method, path, idempotencyKey, body, status, replayed}.
 */
export async function startFakeApi(port = 0, options = {}) {
  const state = newState();
  /** @type {Array<{method: string, path: string, idempotencyKey: string | undefined, body: unknown, status: number, replayed: boolean}>} */
  const requests = [];

  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        const reply = handle(state, req, text);
        const key = headerValue(req.headers['idempotency-key']);
        requests.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey: key, body: parseOr(text, text), status: reply.status, replayed: reply.replayed === true });
        options.log?.(`${req.method} ${req.url} -> ${reply.status}${key === undefined ? '' : ` (Idempotency-Key ${key}${reply.replayed ? ', replayed' : ''})`}`);
        send(res, reply);
      },
      () => send(res, error(400, 'unreadable_body', 'the request body could not be read')),
    );
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve(undefined));
      server.closeAllConnections();
    });
  return { url, close, requests };
}

function newState() {
  return {
    /** orderId -> order */
    orders: new Map(),
    /** recordId -> record */
    records: new Map([['A17', { id: 'A17', revision: 3, fields: { status: 'open', owner: 'ops', priority: 'normal' }, updatedAt: new Date().toISOString() }]]),
    /** "flights" | "hotels" | "cars" -> reference -> booking */
    bookings: new Map([['flights', new Map()], ['hotels', new Map()], ['cars', new Map()]]),
    /** "METHOD path key" -> { body text, reply } of the first request with that key */
    idempotency: new Map(),
    /** reminders sent, in order */
    reminders: [],
    counter: 0,
  };
}

/** One request, one reply: {status, body?}. Honours Idempotency-Key before anything else. */
function handle(state, req, text) {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://fake').pathname;
  const key = headerValue(req.headers['idempotency-key']);
  const slot = key === undefined ? undefined : `${method} ${path} ${key}`;
  if (slot !== undefined && state.idempotency.has(slot)) {
    const first = state.idempotency.get(slot);
    if (first.text !== text) return error(422, 'idempotency_key_reused', `Idempotency-Key ${key} was first used with a different body`);
    return { ...first.reply, replayed: true };
  }

  let body;
  if (text !== '') {
    body = parseOr(text, undefined);
    if (body === undefined) return error(400, 'invalid_json', 'the body is not JSON');
  }
  const reply = route(state, method, path, body, req.headers);
  // Only completed work is remembered: a 5xx or a 429 (quota used) may be retried with the same key and do the work then.
  if (slot !== undefined && reply.status < 500 && reply.status !== 429) state.idempotency.set(slot, { text, reply });
  return reply;
}

function route(state, method, path, body, headers) {
  const parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);
  const [a, b, c, d] = parts;
  if (method === 'GET' && path === '/health') return ok(200, { ok: true });

  // --- shop: orders ---
  if (a === 'orders' && parts.length === 1 && method === 'POST') return createOrder(state, body);
  if (a === 'orders' && parts.length === 2 && method === 'GET') return found(state.orders.get(b), 'order', b);
  if (a === 'orders' && parts.length === 3 && c === 'fulfilment' && method === 'POST') return fulfilOrder(state, b, body);
  if (a === 'orders' && parts.length === 3 && c === 'cancel' && method === 'POST') return cancelOrder(state, b, body);

  // --- records ---
  if (a === 'records' && parts.length === 2 && method === 'GET') return found(state.records.get(b), 'record', b);
  if (a === 'records' && parts.length === 2 && method === 'PUT') return updateRecord(state, b, body, headers);

  // --- mail: reminders, under an hourly quota ---
  if (a === 'reminders' && parts.length === 1 && method === 'POST') return sendReminder(state, body);
  if (a === 'reminders' && parts.length === 1 && method === 'GET') return ok(200, { reminders: state.reminders });

  // --- booking desks ---
  if (state.bookings.has(a) && b === 'bookings') {
    const desk = state.bookings.get(a);
    if (parts.length === 2 && method === 'POST') return book(state, a, desk, body);
    if (parts.length === 4 && c === 'by-reference' && method === 'GET') return found(desk.get(d), 'booking', d);
    if (parts.length === 4 && c === 'by-reference' && method === 'DELETE') return cancelBooking(desk, d);
  }
  if (a === 'trips' && parts.length === 3 && c === 'quote' && method === 'GET') return quoteTrip(state, b);
  if (a === 'trips' && parts.length === 3 && c === 'confirmation' && method === 'PUT') return confirmTrip(state, b, body);
  return error(404, 'not_found', `no route for ${method} ${path}`);
}

function createOrder(state, body) {
  if (!isObject(body) || typeof body.orderId !== 'string' || !Array.isArray(body.items) || body.items.length === 0) {
    return error(400, 'invalid_order', 'an order needs orderId and at least one item');
  }
  if (state.orders.has(body.orderId)) return error(409, 'order_exists', `order ${body.orderId} exists already`);
  const order = {
    orderId: body.orderId,
    customerId: body.customerId,
    items: body.items,
    total: body.total,
    state: 'created',
    createdAt: new Date().toISOString(),
  };
  state.orders.set(order.orderId, order);
  // The checkout's payment token: a credential the order-payment example marks sensitive.
  return ok(201, { ...order, paymentToken: `pt_${randomBytes(12).toString('hex')}` });
}

function fulfilOrder(state, orderId, body) {
  const order = state.orders.get(orderId);
  if (order === undefined) return error(404, 'order_not_found', `no order ${orderId}`);
  if (order.state === 'cancelled') return error(409, 'order_cancelled', `order ${orderId} is cancelled`);
  order.state = 'fulfilling';
  order.fulfilmentId = order.fulfilmentId ?? nextId(state, 'ful');
  return ok(202, { orderId, fulfilmentId: order.fulfilmentId, paymentId: isObject(body) ? body.paymentId : undefined, state: order.state });
}

function cancelOrder(state, orderId, body) {
  const order = state.orders.get(orderId);
  if (order === undefined) return error(404, 'order_not_found', `no order ${orderId}`);
  if (order.state === 'fulfilling') return error(409, 'order_in_fulfilment', `order ${orderId} is being fulfilled and can no longer be cancelled`);
  if (order.state !== 'cancelled') {
    order.state = 'cancelled';
    order.cancelledAt = new Date().toISOString();
    order.cancelReason = isObject(body) ? body.reason : undefined;
  }
  return ok(200, order);
}

function updateRecord(state, recordId, body, headers) {
  const record = state.records.get(recordId);
  if (record === undefined) return error(404, 'record_not_found', `no record ${recordId}`);
  if (!isObject(body) || !isObject(body.fields)) return error(400, 'invalid_update', 'an update needs fields');
  const expected = headerValue(headers['if-match']) ?? (body.baseRevision === undefined ? undefined : String(body.baseRevision));
  if (expected !== undefined && expected !== String(record.revision)) {
    return error(412, 'revision_mismatch', `record ${recordId} is at revision ${record.revision}, not ${expected}`);
  }
  record.fields = { ...record.fields, ...body.fields };
  record.revision += 1;
  record.updatedAt = new Date().toISOString();
  return ok(200, record);
}

/** What each desk books, and how to tell that its dates are backwards. */
const DESKS = {
  flights: { prefix: 'FL', who: 'passenger', dates: () => undefined },
  hotels: { prefix: 'HT', who: 'guest', dates: (b) => (b.checkOut > b.checkIn ? undefined : 'checkOut must be after checkIn') },
  cars: { prefix: 'CR', who: 'driver', dates: (b) => (b.until >= b.from ? undefined : 'until must not be before from') },
};

function book(state, deskName, desk, body) {
  const rules = DESKS[deskName];
  if (!isObject(body) || typeof body.reference !== 'string' || !isObject(body[rules.who])) {
    return error(400, 'invalid_booking', `a booking needs reference and ${rules.who}`);
  }
  const problem = rules.dates(body);
  if (problem !== undefined) return error(422, 'invalid_dates', problem);
  const existing = desk.get(body.reference);
  if (existing !== undefined && existing.state === 'confirmed') {
    return error(409, 'duplicate_reference', `${body.reference} is booked already as ${existing.bookingId}`);
  }
  const booking = { ...body, bookingId: nextId(state, rules.prefix), state: 'confirmed', bookedAt: new Date().toISOString() };
  desk.set(body.reference, booking);
  return ok(201, booking);
}

/** What each desk charges for a trip's booking, in EUR. */
const PRICES = { flights: 320, hotels: 480, cars: 150 };
const QUOTE_HELD_MS = 24 * 3_600_000;

function quoteTrip(state, tripId) {
  let total = 0;
  for (const [desk, what] of [['flights', 'flight'], ['hotels', 'hotel'], ['cars', 'car']]) {
    const booking = state.bookings.get(desk).get(`${tripId}-${what}`);
    if (booking === undefined || booking.state !== 'confirmed') return error(409, 'booking_missing', `trip ${tripId}: no confirmed ${what} booking to price`);
    total += PRICES[desk];
  }
  return ok(200, { tripId, total, currency: 'EUR', heldUntil: new Date(Date.now() + QUOTE_HELD_MS).toISOString() });
}

function confirmTrip(state, tripId, body) {
  if (!isObject(body)) return error(400, 'invalid_confirmation', 'a confirmation needs the flight, hotel and car references');
  const get = (desk, ref) => (typeof ref === 'string' ? state.bookings.get(desk).get(ref) : undefined);
  const parts = { flight: get('flights', body.flight), hotel: get('hotels', body.hotel), car: get('cars', body.car) };
  for (const [what, booking] of Object.entries(parts)) {
    if (booking === undefined || booking.state !== 'confirmed') return error(409, 'booking_missing', `trip ${tripId}: the ${what} booking ${String(body[what])} is not confirmed`);
  }
  if (parts.hotel.checkIn !== parts.flight.date) {
    return error(409, 'itinerary_mismatch', `trip ${tripId}: the hotel check-in (${parts.hotel.checkIn}) is not the flight date (${parts.flight.date})`);
  }
  const trip = { tripId, state: 'confirmed', flight: parts.flight.bookingId, hotel: parts.hotel.bookingId, car: parts.car.bookingId };
  return ok(200, trip);
}

function cancelBooking(desk, reference) {
  const booking = desk.get(reference);
  // Nothing was booked under this reference (the booking never arrived): nothing to cancel.
  if (booking === undefined) return { status: 204 };
  if (booking.state !== 'cancelled') {
    booking.state = 'cancelled';
    booking.cancelledAt = new Date().toISOString();
  }
  return ok(200, booking);
}

/** Reminders the mail API sends per clock hour (UTC): past it, 429 until the next hour. */
export const REMINDERS_PER_HOUR = 3;

function sendReminder(state, body) {
  if (typeof body?.to !== 'string' || typeof body.invoice !== 'string' || typeof body.amount !== 'number') {
    return error(400, 'invalid_reminder', 'a reminder needs to (text), invoice (text) and amount (number)');
  }
  const hour = new Date().toISOString().slice(0, 13);
  if (state.reminders.filter((r) => r.sentAt.slice(0, 13) === hour).length >= REMINDERS_PER_HOUR) {
    return error(429, 'quota_used', `this hour's ${REMINDERS_PER_HOUR} reminders are sent; try again next hour`);
  }
  const reminder = { id: `REM-${++state.counter}`, to: body.to, invoice: body.invoice, amount: body.amount, sentAt: new Date().toISOString() };
  state.reminders.push(reminder);
  return ok(201, reminder);
}

// --- helpers ---

function ok(status, body) {
  return { status, body };
}

function error(status, code, message) {
  return { status, body: { error: code, message } };
}

function found(value, what, id) {
  return value === undefined ? error(404, `${what}_not_found`, `no ${what} ${id}`) : ok(200, value);
}

function nextId(state, prefix) {
  state.counter += 1;
  return `${prefix}-${String(state.counter).padStart(5, '0')}`;
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function headerValue(value) {
  return Array.isArray(value) ? value[0] : value;
}

function parseOr(text, fallback) {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res, reply) {
  const headers = reply.replayed === true ? { 'idempotent-replayed': 'true' } : {};
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

// Run as a script: node examples/fake-api.mjs [PORT]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: node examples/fake-api.mjs [PORT]   (PORT is 0-65535, default 8787; got ${process.argv[2]})`);
    process.exit(2);
  }
  const api = await startFakeApi(port, { log: (line) => console.log(line) });
  console.log(`fake API listening on ${api.url}  (Ctrl-C stops it)`);
  const stop = () => api.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
