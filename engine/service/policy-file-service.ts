// The workspace policy file as the app's policy page reads and writes it (GET and PUT
// /api/policy): weft.policy.json at the workspace root, read as text with its findings, and
// written atomically only when the new text is a valid policy, so a run never starts under a file
// that is half written or does not parse. A run in flight keeps the policy it started under.
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../shared-node/atomic-file.ts';
import type { PolicyFileView } from '../../shared/api/policy-file.ts';
import { SavePolicyRequest } from '../../shared/api/policy-file.ts';
import { policyDiagnostics } from '../../shared/policy/check-policy.ts';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import { POLICY_FILE } from '../../shared/policy/policy-schema.ts';
import { hashOf } from '../store/canonical-json.ts';
import { MAX_POLICY_BYTES, policyPath } from '../policy/load-policy.ts';
import type { CommandInput } from './parse-command.ts';
import { parseCommand } from './parse-command.ts';
import { ServiceError } from './service-error.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

/**
 * The policy file of the workspace, with its findings and the workflows of the root it breaks.
 *
 * @example
 * const view = await policyFileView(service.files); // { file: 'weft.policy.json', exists: true, policy: {…}, … }
 */
export async function policyFileView(files: WorkspaceFiles): Promise<PolicyFileView> {
  const path = policyPath(files.root);
  let text: string | null = null;
  let exists = true;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ServiceError('refused', `${POLICY_FILE} in ${files.root} is not a file; the workspace policy must be a JSON file`);
    if (st.size > MAX_POLICY_BYTES) throw new ServiceError('refused', `${POLICY_FILE} in ${files.root} is ${st.size.toLocaleString('en-US')} bytes; a policy is a few KiB: check that it is the right file`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new ServiceError('internal', `cannot read ${path}: ${(e as Error).message}`);
    exists = false;
  }
  return viewOf(files, exists, text);
}

/**
 * Writes a new policy text, when it is a valid policy; refuses it (400, the first finding with
 * its line or JSON path) otherwise, leaving the file as it was.
 *
 * @example
 * await savePolicyFile(service.files, { text: '{"format": "weft-policy/v1"}' }); // the new view
 */
export async function savePolicyFile(files: WorkspaceFiles, request: CommandInput<typeof SavePolicyRequest>): Promise<PolicyFileView> {
  const { text } = parseCommand(SavePolicyRequest, request, 'the request');
  const parsed = parsePolicyText(text);
  if (!parsed.ok) {
    const first = parsed.diagnostics[0];
    const where = first === undefined ? '' : first.line === undefined ? `${first.path}: ` : `line ${first.line}, column ${first.column ?? 1}: `;
    const more = parsed.diagnostics.length > 1 ? ` (and ${parsed.diagnostics.length - 1} more)` : '';
    throw new ServiceError('bad-input', `the policy was not saved: ${where}${first?.message ?? 'not a valid policy'}${more}; ${first?.hint ?? 'see docs/policies.md'}`, first?.line === undefined ? first?.path : undefined);
  }
  writeFileAtomic(policyPath(files.root), text.endsWith('\n') ? text : `${text}\n`);
  return policyFileView(files);
}

async function viewOf(files: WorkspaceFiles, exists: boolean, text: string | null): Promise<PolicyFileView> {
  const base = { file: POLICY_FILE, exists, text };
  if (text === null) return { ...base, hash: null, policy: null, diagnostics: [], workflows: [] };
  const parsed = parsePolicyText(text);
  if (!parsed.ok) return { ...base, hash: null, policy: null, diagnostics: parsed.diagnostics, workflows: [] };
  const workflows: PolicyFileView['workflows'] = [];
  // The root's policy is the one of the workflows directly in the root (a subfolder's own file governs its workflows).
  for (const f of await files.list()) {
    if (f.workflow === undefined || dirname(f.file) !== '.') continue;
    const diagnostics = policyDiagnostics(f.workflow, parsed.policy);
    if (diagnostics.length > 0) workflows.push({ file: f.file, workflowId: f.workflow.id, diagnostics });
  }
  return { ...base, hash: hashOf(parsed.policy), policy: parsed.policy, diagnostics: [], workflows };
}
