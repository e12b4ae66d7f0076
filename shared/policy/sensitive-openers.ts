// Who may open a sensitive value of a run (docs/policies.md, "Who opens sensitive values"): the
// `sensitive.openers` of the workspace policy, names and `*` patterns matched against the name an
// opening is made under. One home for the matching and the refusal's words, which `weft artifact
// open`, POST /api/runs/:id/artifact and so the app all reach through the service.
import type { Policy } from './policy-schema.ts';

/**
 * Whether `name` is one of `openers`: equal to a name, or matching a pattern where `*` stands for
 * any run of characters (none included). Case matters, as it does in the names actions record.
 *
 * @example
 * isOpener(['alice', 'ops-*'], 'ops-kim'); // true
 * isOpener(['alice', 'ops-*'], 'Alice');   // false
 */
export function isOpener(openers: readonly string[], name: string): boolean {
  return openers.some((o) => (o.includes('*') ? patternOf(o).test(name) : o === name));
}

const patterns = new Map<string, RegExp>();

function patternOf(opener: string): RegExp {
  let re = patterns.get(opener);
  if (re === undefined) {
    re = new RegExp(`^${opener.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
    patterns.set(opener, re);
  }
  return re;
}

/**
 * Why `by` may not open a sensitive value under `policy` (read from `file`), or undefined when
 * they may: no `sensitive` section lets anyone.
 *
 * @example
 * openerRefusal({ format: 'weft-policy/v1', sensitive: { openers: ['alice'] } }, 'bob', '/ws/weft.policy.json');
 * // 'policy rule sensitive.openers of /ws/weft.policy.json lets only alice open sensitive values, and "bob" is not one of them; …'
 */
export function openerRefusal(policy: Policy | undefined, by: string, file: string): string | undefined {
  const rights = policy?.sensitive;
  if (rights === undefined || isOpener(rights.openers, by)) return undefined;
  const who = rights.openers.length === 0 ? 'lets nobody open sensitive values' : `lets only ${rights.openers.join(', ')} open sensitive values, and "${by}" is not one of them`;
  return `policy rule sensitive.openers of ${file} ${who}; ask one of them to open it, or have the workspace add the name to sensitive.openers; nothing was opened or recorded`;
}
