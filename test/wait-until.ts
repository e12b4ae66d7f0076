// Waiting in tests, on a busy machine: poll the state until it holds, never sleep a fixed time
// and never give a wait a budget a slow run could exceed. The one clock is WAIT_BOUND_MS, which
// only stops a broken test with a message naming what never happened: it is far longer than
// any real wait here under load, and shorter than the test timeouts (vitest.config.ts,
// playwright.config.ts), so that message is the one reported. No imports of ours: any test,
// helper or child process may use it.

/** How long a condition may take before the test is called broken (see vitest.config.ts). */
export const WAIT_BOUND_MS = 90_000;

export interface WaitOptions {
  /** Between checks. Default 20 ms. */
  pollMs?: number;
  /** Only for a wait that is itself the subject of a bound the test states; default WAIT_BOUND_MS. */
  boundMs?: number;
}

/** Polls `check` until it holds; throws `timed out waiting for WHAT` after the bound. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, { pollMs = 20, boundMs = WAIT_BOUND_MS }: WaitOptions = {}): Promise<void> {
  await waitFor(async () => ((await check()) ? true : undefined), what, { pollMs, boundMs });
}

/** Polls `get` until it returns a value (not undefined), and returns it. */
export async function waitFor<T>(get: () => T | undefined | Promise<T | undefined>, what: string, { pollMs = 20, boundMs = WAIT_BOUND_MS }: WaitOptions = {}): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() - start > boundMs) throw new Error(`timed out waiting for ${what} (${Math.round(boundMs / 1000)} s)`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
