import { call } from './http.ts';
// The JSON view's calls for large values: `GET /api/runs/:id/value`, a value of a run by its
// value path, whole or level by level (docs/payloads.md). RunDetail ships ElidedValue stubs for
// values over 64 KiB; the view fetches what the user opens. As in api-client.ts, the answer is
// parsed with its shared/api schema and an error body becomes an ApiError.
import { RunValue } from '../../shared/api/run-value.ts';

/** How much of the value to send: `depth` levels (deeper large containers as stubs), a slice of its entries. */
export interface ValueCut {
  depth?: number;
  offset?: number;
  limit?: number;
}

export class PayloadClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  /**
   * The value at `path` in run `runId`.
   *
   * @example
   * const page = await payloads.value(runId, stub.path, { depth: 1, limit: 500 });
   * page.total; // entries of the whole value; page.value holds those from page.offset on
   */
  value(runId: string, path: string, cut: ValueCut = {}, signal?: AbortSignal): Promise<RunValue> {
    const q = new URLSearchParams({ path });
    if (cut.depth !== undefined) q.set('depth', String(cut.depth));
    if (cut.offset !== undefined) q.set('offset', String(cut.offset));
    if (cut.limit !== undefined) q.set('limit', String(cut.limit));
    const url = `/api/runs/${encodeURIComponent(runId)}/value?${q.toString()}`;
    return call(this.base, this.token, url, RunValue, signal === undefined ? {} : { signal });
  }
}
