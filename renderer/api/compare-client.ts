// The app's call that compares two runs (`GET /api/compare?a=&b=`). As in api-client.ts, the
// answer is parsed with its shared/api schema and an error body becomes an ApiError with its code,
// message and path (a 404 `not-found` names the side, A or B, whose run is unknown).
import { call } from './http.ts';
import { RunComparison } from '../../shared/api/run-comparison.ts';

export class CompareClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  /**
   * Runs `a` and `b` (ids or unique prefixes) side by side.
   *
   * @example
   * const c = await new CompareClient(token).compare(runA, runB);
   * c.firstDifference?.kind; // 'path'
   */
  compare(a: string, b: string): Promise<RunComparison> {
    const q = new URLSearchParams({ a, b });
    return call(this.base, this.token, `/api/compare?${q.toString()}`, RunComparison);
  }

}
