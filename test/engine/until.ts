// Polling helper shared by engine and executor tests; no imports, so any test can use it.

/** Polls until `check` is true (state, not time: the timeout only bounds a broken test). */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
