// `#/compare/A/B`: two runs side by side (shared/run/compare-runs.ts, what `weft compare` prints).
import { useEffect, useState } from 'react';
import type { RunComparison } from '../../../shared/api/run-comparison.ts';
import { useSession } from '../../core/session-store.ts';
import { CompareView } from './compare-view.tsx';

export function ComparePage({ a, b }: { a: string; b: string }) {
  const client = useSession((s) => s.compare);
  const [comparison, setComparison] = useState<RunComparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = `Compare ${a} with ${b} · Weft Studio`;
    if (client === null) return;
    let live = true;
    client.compare(a, b).then(
      (c) => live && setComparison(c),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [a, b, client]);
  if (error !== null) return <div className="error-box">Could not compare the runs: {error}</div>;
  if (comparison === null) return <div className="loading">Comparing {a} with {b}…</div>;
  return (
    <div className="page compare-page">
      <CompareView comparison={comparison} />
    </div>
  );
}
