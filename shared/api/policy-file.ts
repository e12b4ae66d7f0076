// The workspace policy over the API (docs/api.md, "Policy"; docs/policies.md): its file's text as
// it is, the policy it gives when it is valid, the findings that say why not, and what the policy
// finds in each workflow of the workspace root; and the text the app's policy page saves.
import { z } from 'zod';
import { Policy } from '../policy/policy-schema.ts';
import { DiagnosticSchema } from './diagnostic-schema.ts';

/** The policy's findings on one workflow file of the workspace root. */
export const PolicyWorkflowFindings = z.strictObject({
  file: z.string().describe('relative to the workspace'),
  workflowId: z.string(),
  diagnostics: z.array(DiagnosticSchema).describe('policy_* findings, each on a step'),
});

/**
 * `GET /api/policy`, and the answer of `PUT /api/policy`.
 *
 * @example
 * { file: 'weft.policy.json', exists: true, text: '{…}', hash: '9aec51b5b03f08cc', policy: { format: 'weft-policy/v1', … }, diagnostics: [], workflows: [] }
 */
export const PolicyFileView = z.strictObject({
  file: z.string().describe('the policy file, relative to the workspace: weft.policy.json'),
  exists: z.boolean().describe('false: the workspace has no policy file, and runs start without a policy'),
  text: z.string().nullable().describe('the file as it is (null when it does not exist or cannot be read)'),
  hash: z.string().nullable().describe('what a run starting now would snapshot (null without a valid policy)'),
  policy: Policy.nullable().describe('the parsed policy, null when there is none or it is not valid'),
  diagnostics: z.array(DiagnosticSchema).describe("why the file's text is not a valid policy, with line and column or JSON path"),
  workflows: z.array(PolicyWorkflowFindings).describe('workflow files of the workspace root that break the policy (only those)'),
});
export type PolicyFileView = z.infer<typeof PolicyFileView>;

/** `PUT /api/policy`: the new text of weft.policy.json (refused with 400 unless it is a valid policy). */
export const SavePolicyRequest = z.strictObject({
  text: z.string().max(1024 * 1024).describe('the whole file, as the editor holds it'),
});
