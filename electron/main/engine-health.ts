// One health check: GET /api/health with the token (the engine answers {version, workspace,
// store}). Any answer but 200 within the time limit counts as a failure; the caller decides how
// many failures in a row mean the engine is gone. The timer is our own, cleared either way, so a
// stopped supervisor leaves nothing pending.

export async function engineAnswers(url: string, token: string, timeoutMs: number): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
