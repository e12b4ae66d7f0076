// Retry decisions and backoff. The engine alone decides whether to retry (principle 1).
import type { RetryPolicy } from '../../shared/definition/step-common.ts';
import type { Random } from '../time/clock.ts';

const DEFAULT_INITIAL_INTERVAL_MS = 1_000;
const DEFAULT_BACKOFF_COEFFICIENT = 2;
const DEFAULT_MAX_INTERVAL_MS = 300_000;

/**
 * Delay before attempt `next` (2, 3, ...): initial × coefficient^(next-2), capped, then reduced
 * by up to `jitter` of itself at random.
 */
export function backoffMs(policy: RetryPolicy | undefined, next: number, random: Random): number {
  const initial = policy?.initialIntervalMs ?? DEFAULT_INITIAL_INTERVAL_MS;
  const coefficient = policy?.backoffCoefficient ?? DEFAULT_BACKOFF_COEFFICIENT;
  // Without maxIntervalMs the cap is 5 minutes, but never below the initial interval asked for.
  const cap = policy?.maxIntervalMs ?? Math.max(DEFAULT_MAX_INTERVAL_MS, initial);
  const base = Math.min(cap, initial * coefficient ** Math.max(0, next - 2));
  const jitter = policy?.jitter ?? 0;
  return Math.round(base * (1 - jitter * random()));
}

export function mayRetry(policy: RetryPolicy | undefined, attemptsCounted: number, code: string, retryable: boolean): boolean {
  if (!retryable) return false;
  if (policy?.nonRetryable?.includes(code)) return false;
  return attemptsCounted < (policy?.maxAttempts ?? 1);
}

/** The config of attempt `n`: attempt 1 uses the step's config; attempt k uses variant k-2 merged in. */
export function configForAttempt(
  config: Record<string, unknown>,
  policy: RetryPolicy | undefined,
  n: number,
): { config: Record<string, unknown>; variant: number | null } {
  const variants = policy?.variants ?? [];
  if (n < 2 || variants.length === 0) return { config, variant: null };
  const k = Math.min(n - 2, variants.length - 1);
  return { config: { ...config, ...variants[k] }, variant: k };
}
