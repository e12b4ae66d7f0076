// Which artifacts the runs of a store reference (docs/long-running.md, "Retention"): every
// `{"$artifact": …}` in any event's data. `weft gc` keeps these and may remove the rest. Read in
// one statement, so the answer is one snapshot of the log.
import { artifactRefsIn } from '../../shared/artifacts/artifact-ref.ts';
import type { UnitOfWork } from './unit-of-work.ts';

/** The sha256 of every artifact an event of the store references. */
export function referencedArtifacts(work: UnitOfWork): Set<string> {
  const out = new Set<string>();
  const rows = work.stmt(`SELECT data FROM events WHERE instr(data, '"$artifact"') > 0`).raw().iterate() as Iterable<[string]>;
  for (const [data] of rows) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      // A damaged row: the log's own check reports it; any sha256 in its text is kept all the same.
      for (const m of data.matchAll(/[0-9a-f]{64}/g)) out.add(m[0]);
      continue;
    }
    for (const ref of artifactRefsIn(parsed)) out.add(ref.$artifact.sha256);
  }
  return out;
}
