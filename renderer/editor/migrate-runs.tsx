// In a workflow's History: runs still going on an older version ("2 runs on v2 are still
// running"), and Migrate…, which shows each run's plan (safe, needs decision, refused, with the
// reasons) and moves the safe ones to the newest version (POST /api/workflows/:id/migrate; the
// engine checks each run again as it applies it, docs/evolution.md "Migration").
import { useCallback, useEffect, useState } from 'react';
import { ArrowUpRight } from 'lucide-react';
import type { MigrationPlan, MigrationReport } from '../../shared/api/migration.ts';
import { errorMessage } from '../api/run-actions-client.ts';
import { requireClients } from '../api/clients.ts';
import { useRoute } from '../core/route-store.ts';

interface Props {
  workflowId: string;
  /** The newest stored version: where the runs move. */
  latest: number;
}

const VERDICT: Record<MigrationPlan['verdict'], string> = { safe: 'safe', needs_decision: 'needs decision', refused: 'refused' };

/** What a plan names besides its verdict, one line each. */
function reasons(plan: MigrationPlan): string[] {
  return [
    ...plan.refusals.map((r) => r.message),
    ...plan.decisions.map((d) => d.message),
    ...(plan.added.length > 0 ? [`new steps: ${plan.added.join(', ')}`] : []),
  ];
}

export function MigrateRuns({ workflowId, latest }: Props) {
  const go = useRoute((s) => s.go);
  const [plan, setPlan] = useState<MigrationReport | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setPlan(await requireClients().actions.migrateWorkflow(workflowId, { toVersion: latest, dryRun: true }));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [workflowId, latest]);

  useEffect(() => {
    void load();
  }, [load]);

  const migrate = async (from: number) => {
    setBusy(true);
    setError(null);
    try {
      const r = await requireClients().actions.migrateWorkflow(workflowId, { toVersion: latest, fromVersion: from });
      const moved = r.runs.filter((x) => x.applied).length;
      setDone(`Migrated ${moved} of ${r.runs.length} run${r.runs.length === 1 ? '' : 's'} from v${from} to v${latest}.`);
      setOpen(null);
      await load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const byVersion = new Map<number, MigrationPlan[]>();
  for (const r of plan?.runs ?? []) byVersion.set(r.plan.fromVersion, [...(byVersion.get(r.plan.fromVersion) ?? []), r.plan]);
  if (byVersion.size === 0 && error === null && done === null) return null;
  return (
    <section className="panel-section" data-testid="migrate-runs">
      <h3>Runs on older versions</h3>
      {done !== null ? <p className="muted" role="status" data-testid="migrate-done">{done}</p> : null}
      {error !== null ? <p className="ins-error" role="alert">{error}</p> : null}
      {[...byVersion].sort(([a], [b]) => b - a).map(([from, plans]) => {
        const safe = plans.filter((p) => p.verdict === 'safe').length;
        return (
          <div key={from} className="migrate-group" data-testid={`migrate-from-${from}`}>
            <p style={{ margin: '0 0 6px' }}>
              {plans.length} run{plans.length === 1 ? '' : 's'} on v{from} {plans.length === 1 ? 'is' : 'are'} still running.
            </p>
            <button type="button" className="button" aria-expanded={open === from} onClick={() => setOpen(open === from ? null : from)} data-testid={`migrate-open-${from}`}>
              Migrate to v{latest}…
            </button>
            {open === from ? (
              <div className="migrate-plan" data-testid={`migrate-plan-${from}`}>
                <ul className="history-list">
                  {plans.map((p) => (
                    <li key={p.runId} className="history-row" data-testid={`migrate-run-${p.runId}`}>
                      <div className="history-main">
                        <button type="button" className="link-button mono" onClick={() => go({ page: 'run', id: p.runId })}>
                          {p.runId} <ArrowUpRight size={12} aria-hidden="true" />
                        </button>
                        <span className="node-chip" data-verdict={p.verdict}>{VERDICT[p.verdict]}</span>
                      </div>
                      {reasons(p).map((line) => (
                        <div key={line} className="history-sub faint">{line}</div>
                      ))}
                    </li>
                  ))}
                </ul>
                <button type="button" className="button button-primary" disabled={busy || safe === 0} onClick={() => void migrate(from)} data-testid={`migrate-apply-${from}`}>
                  Migrate {safe} safe run{safe === 1 ? '' : 's'}
                </button>
                {safe < plans.length ? <p className="muted">{plans.length - safe} stay on v{from}: each says why above (`weft migrate` with --decide or --map can move the ones that need a decision).</p> : null}
              </div>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
