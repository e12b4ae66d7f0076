// The external events' job in the store (`external_events`, migration 3): an event sent from
// outside (weft send) is recorded in a commit of its own as it arrives, and kept until a run
// consumes it; the mark that a run consumed it is held for the next commit (unit-of-work.ts), so
// it is written with the run events that record the delivery, never without them.
import type { ExternalEvent } from './store-types.ts';
import type { BatchPart, PendingWrites, UnitOfWork } from './unit-of-work.ts';

export class ExternalEvents implements BatchPart {
  /** [runId, stepId, eventId] of each event consumed in the batch not yet written. */
  private consumed: [string, string, string][] = [];
  private readonly consume;

  constructor(private readonly work: UnitOfWork) {
    this.consume = work.stmt('UPDATE external_events SET consumed_run = ?, consumed_step = ? WHERE id = ?');
  }

  get hasPending(): boolean {
    return this.consumed.length > 0;
  }

  take(): PendingWrites {
    const consumed = this.consumed;
    this.consumed = [];
    return {
      rows: 0,
      write: () => {
        for (const [runId, stepId, id] of consumed) this.consume.run(runId, stepId, id);
      },
    };
  }

  receive(e: ExternalEvent): 'new' | 'duplicate' {
    const inserted = this.work.stmt('INSERT INTO external_events (id, name, key, data, received_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(e.id, e.name, e.key, JSON.stringify(e.data ?? null), e.receivedAt);
    if (inserted.changes === 1) return 'new';
    this.work.stmt('UPDATE external_events SET duplicates = duplicates + 1 WHERE id = ?').run(e.id);
    return 'duplicate';
  }

  find(name: string, key: string, except: ReadonlySet<string>): ExternalEvent | undefined {
    const rows = this.work.stmt('SELECT id, name, key, data, received_at FROM external_events WHERE name = ? AND key = ? AND consumed_run IS NULL ORDER BY received_at, id').iterate(name, key) as IterableIterator<
      { id: string; name: string; key: string; data: string; received_at: number }
    >;
    for (const row of rows) {
      if (except.has(row.id) || this.consumed.some((c) => c[2] === row.id)) continue;
      rows.return?.();
      return { id: row.id, name: row.name, key: row.key, data: JSON.parse(row.data) as unknown, receivedAt: row.received_at };
    }
    return undefined;
  }

  unconsumedKeys(): { name: string; key: string }[] {
    return this.work.stmt('SELECT DISTINCT name, key FROM external_events WHERE consumed_run IS NULL ORDER BY name, key').all() as { name: string; key: string }[];
  }

  markConsumed(id: string, runId: string, stepId: string): void {
    this.consumed.push([runId, stepId, id]);
  }

  has(id: string): boolean {
    return this.work.stmt('SELECT 1 FROM external_events WHERE id = ?').get(id) !== undefined;
  }

  consumer(id: string): { runId: string; stepId: string } | undefined {
    const pending = this.consumed.find((c) => c[2] === id);
    if (pending !== undefined) return { runId: pending[0], stepId: pending[1] };
    const row = this.work.stmt('SELECT consumed_run, consumed_step FROM external_events WHERE id = ?').get(id) as { consumed_run: string | null; consumed_step: string | null } | undefined;
    return row?.consumed_run ? { runId: row.consumed_run, stepId: row.consumed_step ?? '' } : undefined;
  }
}
