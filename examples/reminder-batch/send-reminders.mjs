#!/usr/bin/env node
// The `send` step of reminder-batch.weft.json: sends one payment reminder per invoice through a
// mail API (POST {apiBase}/reminders, one call per invoice, with an Idempotency-Key per invoice).
// It may finish only part of the batch: the API answers 429 when its sending quota for the hour is
// used, or the attempt reaches `perAttempt` sends. It then prints a partial report on stdout,
//   {"$partial": {"output": {"sent": [...]}, "remaining": {"invoices": [...]}}}
// and exits 0; Weft ends the attempt `partial`. The attempt that continues gets that report in
// WEFT_PARTIAL and sends only what remains, so no customer gets a reminder twice.
// Input (stdin, one JSON line): {"apiBase": "http://...", "invoices": [{"id", "email", "amount"}], "perAttempt"?: n}.
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const earlier = process.env.WEFT_PARTIAL === undefined ? undefined : JSON.parse(process.env.WEFT_PARTIAL);
const sent = earlier === undefined ? [] : [...earlier.output.sent];
const todo = earlier === undefined ? input.invoices : earlier.remaining.invoices;
const limit = input.perAttempt ?? todo.length;

let done = 0;
for (const invoice of todo) {
  if (done === limit) break;
  const reply = await fetch(`${input.apiBase}/reminders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `reminder-${invoice.id}` },
    body: JSON.stringify({ to: invoice.email, invoice: invoice.id, amount: invoice.amount }),
  });
  if (reply.status === 429) break; // the quota for this hour is used: the rest waits
  if (!reply.ok) {
    process.stderr.write(`the mail API answered ${reply.status} for invoice ${invoice.id}\n`);
    // What was sent so far is kept as evidence of the failed attempt.
    process.stdout.write(JSON.stringify({ sent }));
    process.exit(1);
  }
  sent.push(invoice.id);
  done++;
}
const remaining = todo.slice(done);
process.stdout.write(JSON.stringify(remaining.length === 0 ? { sent } : { $partial: { output: { sent }, remaining: { invoices: remaining } } }));
