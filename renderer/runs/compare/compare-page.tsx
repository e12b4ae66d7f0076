// `#/compare/A/B`: two runs side by side (shared/run/compare-runs.ts, what `weft compare` prints).
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { requireClients } from '../../api/clients.ts';
import { keys } from '../../core/query-keys.ts';
import { messageOf } from '../../core/query-client.ts';
import { CompareView } from './compare-view.tsx';

export function ComparePage({ a, b }: { a: string; b: string }) {
  useEffect(() => {
    document.title = `Compare ${a} with ${b} · Weft Studio`;
  }, [a, b]);
  // Read each time the page opens: the runs may have moved on since.
  const query = useQuery({ queryKey: keys.compare(a, b), queryFn: () => requireClients().compare.compare(a, b), staleTime: 0 });
  const comparison = query.data;
  if (query.error !== null) return <div className="error-box">Could not compare the runs: {messageOf(query.error)}</div>;
  if (comparison === undefined) return <div className="loading">Comparing {a} with {b}…</div>;
  return (
    <div className="page compare-page">
      <h1 className="visually-hidden">
        Compare {a} with {b}
      </h1>
      <CompareView comparison={comparison} />
    </div>
  );
}
