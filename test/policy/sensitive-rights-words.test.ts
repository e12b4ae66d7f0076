// The `sensitive` section of a policy in words: on the app's policy page (describePolicy) and in
// `weft policy show` (formatPolicy), with an empty list said as nobody.
import { describe, expect, it } from 'vitest';
import { describePolicy } from '../../renderer/policy/describe-policy.ts';
import { formatPolicy } from '../../engine/cli/commands/policy-command.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';

const policy = (openers: string[]): Policy => ({ format: 'weft-policy/v1', sensitive: { openers, description: 'payments on-call' } });

describe('who opens sensitive values, in words', () => {
  it('names the openers on the policy page, with the description', () => {
    expect(describePolicy(policy(['alice', 'ops-*']))).toEqual([
      { section: 'sensitive', id: 'sensitive.openers', text: 'Only alice and ops-* may open a sensitive value; each opening is recorded.', description: 'payments on-call' },
    ]);
    expect(describePolicy(policy([]))[0]?.text).toBe('Nobody may open a sensitive value.');
  });

  it('names them in weft policy show', () => {
    expect(formatPolicy('/ws/weft.policy.json', { hash: 'h1', rules: policy(['alice', 'ops-*']) })).toContain('  sensitive   openers: alice|ops-*\n');
    expect(formatPolicy('/ws/weft.policy.json', { hash: 'h1', rules: policy([]) })).toContain('  sensitive   openers: nobody\n');
  });
});
