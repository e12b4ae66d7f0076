// The app's call that compares two runs (`GET /api/compare?a=&b=`). As in api-client.ts, the
// answer is parsed with its shared/api schema and an error body becomes an ApiError with its code,
// message and path (a 404 `not-found` names the side, A or B, whose run is unknown).
import type { z } from 'zod';
import { ApiErrorBody } from '../../shared/api/api-error.ts';
import { RunComparison } from '../../shared/api/run-comparison.ts';
import { ApiError } from './api-client.ts';

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
    return this.get(`/api/compare?${q.toString()}`, RunComparison);
  }

  private async get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    const response = await fetch(`${this.base}${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ApiErrorBody.safeParse(body);
      if (error.success) throw new ApiError(response.status, error.data.error.code, error.data.error.message, error.data.error.path);
      throw new ApiError(response.status, 'http-error', `HTTP ${response.status} from ${path}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError(response.status, 'bad-answer', `the engine's answer to ${path} does not match the app's contract at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''} (is the app older or newer than the engine?)`);
    }
    return parsed.data;
  }
}
