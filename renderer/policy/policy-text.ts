// The policy page's reading of the text being typed: its problems, placed in the text (a syntax
// error at its line and column, a bad rule at its JSON path), and its rules in words. Pure, so a
// test reads what the page would show for a text.
import { describePolicy, type DescribedRule } from './describe-policy.ts';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import type { Policy } from '../../shared/policy/policy-schema.ts';
import { locateFinding } from '../../shared/definition/json-path-locator.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import type { ExternalDiagnostic } from '../code/field-checks.ts';

export interface PolicyReading {
  /** The parsed policy, when the text is one. */
  policy: Policy | undefined;
  problems: Diagnostic[];
  /** The problems as ranges of the text, for the code field. */
  marks: ExternalDiagnostic[];
  rules: DescribedRule[];
}

/** A new workspace's first policy: one rule of each common kind, to edit. */
export const STARTER_POLICY = `{
  "format": "weft-policy/v1",
  "approvals": [
    { "id": "payments-approved", "select": { "effects": ["external"], "tags": ["payment"] } }
  ],
  "retries": [
    { "id": "few-external-retries", "select": { "effects": ["external"] }, "maxAttempts": 3 }
  ],
  "forbid": [
    { "id": "no-skipping-payments", "action": "skip", "select": { "tags": ["payment"] } }
  ]
}
`;

/**
 * Reads a policy text as the page shows it.
 *
 * @example
 * readPolicy('{"format": "weft-policy/v1"}').problems // []
 */
export function readPolicy(text: string): PolicyReading {
  const parsed = parsePolicyText(text);
  if (parsed.ok) return { policy: parsed.policy, problems: [], marks: [], rules: describePolicy(parsed.policy) };
  const marks = parsed.diagnostics.map((d): ExternalDiagnostic => {
    const span = locateFinding(text, d);
    return { from: span?.offset ?? 0, to: span?.end ?? Math.min(1, text.length), severity: 'error', message: d.message };
  });
  return { policy: undefined, problems: parsed.diagnostics, marks, rules: [] };
}

/** Where a problem is, for the list under the editor: `line 3, column 14`, or its JSON path. */
export function problemPlace(text: string, d: Diagnostic): string {
  const span = locateFinding(text, d);
  return span === undefined ? 'the whole file' : `line ${span.line}, column ${span.column}`;
}
