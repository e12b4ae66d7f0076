// Text → Policy, or diagnostics that say what is wrong and where (the file's line and column, or
// the JSON path of a bad rule). Never throws for user input: the editor calls it as the policy is
// typed, the engine's loader and `weft policy` when they read weft.policy.json.
import type { Diagnostic } from '../validator/diagnostic.ts';
import { parseJsonDocument, zodIssuesToDiagnostics, type JsonDocumentKind } from '../validator/parse-definition.ts';
import { Policy } from './policy-schema.ts';

const POLICY_DOCUMENT: JsonDocumentKind = {
  starts: 'a policy file is a JSON object starting with {"format": "weft-policy/v1", ...}; see docs/policies.md',
  name: 'weft.policy.json',
  tooDeep: 'a policy never needs this much nesting; check the file',
};

const POLICY_HINT = 'see docs/policies.md for every rule, with examples';

export type PolicyParse = { ok: true; policy: Policy } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parses and schema-checks a policy file's text.
 *
 * @example
 * const r = parsePolicyText('{"format": "weft-policy/v1", "retries": [{"id": "few", "maxAttempts": 2}]}');
 * if (r.ok) r.policy.retries; // [{ id: 'few', maxAttempts: 2 }]
 */
export function parsePolicyText(text: string): PolicyParse {
  const read = parseJsonDocument(text, POLICY_DOCUMENT);
  if (!read.ok) return read;
  const parsed = Policy.safeParse(read.data);
  if (parsed.success) return { ok: true, policy: parsed.data };
  return { ok: false, diagnostics: zodIssuesToDiagnostics(parsed.error.issues, read.data, POLICY_HINT).map((d) => ({ ...d, code: d.code === 'schema-violation' ? 'policy-schema-violation' : d.code })) };
}
