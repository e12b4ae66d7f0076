// The workspace policy's findings on a workflow file, for the commands that check files
// (`weft validate`, `weft policy check`): the policy of the file's folder (its workspace) is read
// once per folder, and a policy file that cannot be read is a finding of its own, so a check never
// passes a workflow that could not start.
import { dirname } from 'node:path';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { policyDiagnostics } from '../../shared/policy/check-policy.ts';
import { POLICY_FILE, type PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import { loadWorkspacePolicy, PolicyFileError } from './load-policy.ts';

/** The code of the finding for a policy file that cannot be read or is not valid. */
export const POLICY_FILE_INVALID = 'policy-file-invalid';

type Read = { ok: true; policy: PolicySnapshot | undefined } | { ok: false; error: PolicyFileError };

/** Reads each workspace's policy once, and gives the policy's findings on workflow files in it. */
export class WorkspacePolicies {
  private readonly read = new Map<string, Read>();

  /**
   * The policy in force in `dir`, or the error that makes it unreadable.
   *
   * @example
   * new WorkspacePolicies().policyOf('/work/flows'); // { ok: true, policy: { hash: '3f2a…', rules: … } }
   */
  policyOf(dir: string): Read {
    let r = this.read.get(dir);
    if (r === undefined) {
      try {
        r = { ok: true, policy: loadWorkspacePolicy(dir) };
      } catch (e) {
        if (!(e instanceof PolicyFileError)) throw e;
        r = { ok: false, error: e };
      }
      this.read.set(dir, r);
    }
    return r;
  }

  /** The findings of the policy of the folder of `path` on `workflow` (none without a policy). */
  findings(path: string, workflow: Workflow): Diagnostic[] {
    const r = this.policyOf(dirname(path));
    if (!r.ok) {
      return [{ code: POLICY_FILE_INVALID, severity: 'error', path: '$', message: r.error.message, hint: `fix ${POLICY_FILE} (weft policy check shows where), or remove it to run without a policy` }];
    }
    return policyDiagnostics(workflow, r.policy?.rules);
  }
}
