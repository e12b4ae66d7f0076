// The rules of a policy in words, grouped by section (approvals, retry caps, forbidden actions,
// escalation, agents, budgets, who opens sensitive values), each with its id: what the workspace
// enforces, read at a glance.
import { SECTION_TITLES, type DescribedRule, type PolicySection } from './describe-policy.ts';

const ORDER: PolicySection[] = ['approvals', 'retries', 'forbid', 'escalation', 'agents', 'budgets', 'sensitive'];

export function PolicyRules({ rules, stale }: { rules: readonly DescribedRule[]; stale: boolean }) {
  return (
    <section className="policy-rules" aria-label="rules in force" data-testid="policy-rules">
      <h2 className="policy-rules-title">{stale ? 'Rules of the saved policy' : 'Rules'}</h2>
      {stale ? <p className="policy-rules-note">The text has problems; these are the rules of the file as saved.</p> : null}
      {rules.length === 0 ? <p className="policy-rules-note">No rules yet: every workflow the validator accepts may run.</p> : null}
      {ORDER.map((section) => {
        const of = rules.filter((r) => r.section === section);
        if (of.length === 0) return null;
        return (
          <div key={section} className="policy-section" data-testid={`policy-section-${section}`}>
            <h3>{SECTION_TITLES[section]}</h3>
            <ul>
              {of.map((r) => (
                <li key={`${r.section}:${r.id}`} data-testid={`policy-rule-${r.id}`}>
                  {r.section === 'budgets' ? null : <code className="policy-rule-id">{r.id}</code>}
                  <span className="policy-rule-text">{r.text}</span>
                  {r.description === undefined ? null : <span className="policy-rule-description">{r.description}</span>}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
