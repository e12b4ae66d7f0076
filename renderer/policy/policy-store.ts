// The workspace policy the editor checks workflows against: read from the server's policy file,
// parsed once here, and watched by the editor's validation (validation-store.ts), which checks the
// open document again when the rules change (the policy page saved new ones).
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from '../core/query-keys.ts';

export interface PolicyRulesState {
  /** The rules in force; null when the workspace has no policy, or its file does not parse (the server refuses runs then). */
  rules: Policy | null;
  /** The file has been read at least once (until then the editor checks without rules). */
  known: boolean;
}

export const usePolicyRules = create<PolicyRulesState>()(() => ({ rules: null, known: false }));

/** Keeps usePolicyRules in step with the workspace's policy file; the editor page calls it. */
export function useWorkspacePolicyRules(): void {
  const file = useQuery({ queryKey: keys.policy(), queryFn: () => requireClients().policy.read() });
  const text = file.data?.text;
  useEffect(() => {
    if (text === undefined) return;
    const parsed = text === null ? undefined : parsePolicyText(text);
    usePolicyRules.setState({ rules: parsed?.ok === true ? parsed.policy : null, known: true });
  }, [text]);
}

/** How many rules a policy has, the budgets counting as one (what the sidebar shows beside Policy). */
export function ruleCount(policy: Policy): number {
  const lists = [policy.approvals, policy.retries, policy.forbid, policy.escalation, policy.agents];
  return lists.reduce((n, l) => n + (l?.length ?? 0), 0) + (policy.budgets === undefined ? 0 : 1);
}
