// The policy a run started under (RunDetail.run.policy), in the run's facts: how many rules and
// which file version (its hash), opening to the rules in words. A run keeps this policy when the
// workspace's file changes later, so this is what its actions are judged by.
import { describePolicy, SECTION_TITLES } from './describe-policy.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import './run-policy.css';

type RunPolicySnapshot = NonNullable<RunDetail['run']['policy']>;

export function RunPolicy({ policy }: { policy: RunPolicySnapshot | undefined }) {
  if (policy === undefined) return <dd className="muted">none</dd>;
  const rules = describePolicy(policy.rules);
  return (
    <dd>
      <details className="run-policy" data-testid="run-policy">
        <summary>
          {rules.length} {rules.length === 1 ? 'rule' : 'rules'} <span className="faint mono">{policy.hash.slice(0, 8)}</span>
        </summary>
        <ul>
          {rules.map((r) => (
            <li key={`${r.section}:${r.id}`}>
              <span className="faint">{SECTION_TITLES[r.section]}</span> {r.text}
            </li>
          ))}
        </ul>
      </details>
    </dd>
  );
}
