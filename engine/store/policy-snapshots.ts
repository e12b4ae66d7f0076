// The policies runs started under (docs/policies.md), stored once each by hash (migration 16), as
// definitions are. A run's run_created event carries its policy snapshot `{ hash, rules }`; the
// store writes only `{ hash }` in the event's row and the rules once in `policies`, and puts them
// back when it reads the row, so every reader (the fold, the API, the live stream, `weft events`)
// sees the event as the engine emitted it. Inline, a workspace policy was half of what governance
// added to a 10-step run's log (docs/policies.md, "What it costs the engine").
//
// A row written before migration 16 (or by a store still without the table) keeps its rules
// inline and is read as it is. A row naming a hash the table does not have is damage, named.
import type { Statement } from './db.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import type { Db } from './db.ts';
import { hashOf } from './canonical-json.ts';
import { StoreError } from './store-error.ts';
import type { BatchPart, PendingWrites } from './unit-of-work.ts';

/** Migration 16's table: a policy's rules (canonical JSON) by the hash run_created names. */
export const POLICIES_SQL = `
  CREATE TABLE policies (
    hash TEXT PRIMARY KEY,
    rules TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/** What the event log asks of the policies when it writes and reads a run_created row. */
export interface PolicyRows {
  /** The JSON to store for an event's data: a run_created's policy by hash when the table is there. */
  storedJson(type: string, data: unknown): string;
  /** A stored event's parsed data with its policy's rules put back (only a run_created's can lack them). */
  expand(type: string, parsed: unknown, where: string): unknown;
}

export class PolicySnapshots implements BatchPart, PolicyRows {
  /** Rules by hash: saved by this store, or read from the table. */
  private readonly rules = new Map<string, Policy>();
  /** Hashes in the table (or in the batch being written). */
  private readonly saved = new Set<string>();
  private pending: [hash: string, rules: string][] = [];
  private present: boolean | undefined;
  private select: Statement | undefined;
  private insert: Statement | undefined;

  constructor(private readonly db: Db) {}

  /** Whether the store has the table (schema 16): earlier migrations' builds run without it. */
  private kept(): boolean {
    this.present ??= this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'policies'").pluck().get() === 1;
    return this.present;
  }

  storedJson(type: string, data: unknown): string {
    const policy = type === 'run_created' ? policyOf(data) : undefined;
    if (policy === undefined || !this.kept()) return JSON.stringify(data);
    const { hash, rules } = policy;
    if (!this.saved.has(hash)) {
      // A hash is the name of the rules everywhere (run_created, RunDetail): one that is not theirs would file them under another policy's name.
      if (hashOf(rules) !== hash) throw new StoreError('bad-input', `run_created names policy ${hash}, but its rules hash to ${hashOf(rules)}`);
      this.saved.add(hash);
      this.pending.push([hash, JSON.stringify(rules)]);
    }
    this.rules.set(hash, rules);
    return JSON.stringify({ ...(data as object), policy: { hash } });
  }

  expand(type: string, parsed: unknown, where: string): unknown {
    if (type !== 'run_created' || typeof parsed !== 'object' || parsed === null || !('policy' in parsed)) return parsed;
    const policy: unknown = parsed.policy;
    if (typeof policy !== 'object' || policy === null || 'rules' in policy || !('hash' in policy) || typeof policy.hash !== 'string') return parsed;
    return { ...parsed, policy: { hash: policy.hash, rules: this.rulesOf(policy.hash, where) } };
  }

  private rulesOf(hash: string, where: string): Policy {
    const known = this.rules.get(hash);
    if (known !== undefined) return known;
    this.select ??= this.kept() ? this.db.prepare('SELECT rules FROM policies WHERE hash = ?').pluck() : undefined;
    const text = this.select?.get(hash) as string | undefined;
    if (text === undefined) throw new StoreError('damaged', `${where}: the run's policy snapshot ${hash} is missing from the store; the store is damaged (restore it from a backup)`);
    let rules: Policy;
    try {
      // Written by storedJson from rules the engine had parsed; read back as written, like the log's own rows (event-rows.ts).
      rules = JSON.parse(text) as Policy;
    } catch {
      throw new StoreError('damaged', `${where}: the stored policy snapshot ${hash} is not JSON; the store is damaged`);
    }
    this.rules.set(hash, rules);
    this.saved.add(hash);
    return rules;
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  take(): PendingWrites {
    const rows = this.pending;
    this.pending = [];
    return {
      rows: rows.length,
      write: () => {
        if (rows.length === 0) return;
        this.insert ??= this.db.prepare('INSERT OR IGNORE INTO policies (hash, rules) VALUES (?, ?)');
        for (const r of rows) this.insert.run(...r);
      },
      // Nothing of the batch was written: those policies are not in the table.
      failed: () => {
        for (const [hash] of rows) this.saved.delete(hash);
      },
    };
  }
}

/** A run_created's policy snapshot, when its data has one with rules. */
function policyOf(data: unknown): { hash: string; rules: Policy } | undefined {
  if (typeof data !== 'object' || data === null || !('policy' in data)) return undefined;
  const p = data.policy as { hash: string; rules?: Policy } | undefined;
  return p?.rules === undefined ? undefined : { hash: p.hash, rules: p.rules };
}
