// The right to open a sensitive value (docs/policies.md, "Who opens sensitive values"), checked
// against the workspace policy as it is now: the weft.policy.json of the run's workspace, not the
// snapshot the run started under, so a name taken off the list can no longer open the values of
// runs that started before. A policy file that cannot be read opens nothing.
import { openerRefusal } from '../../shared/policy/sensitive-openers.ts';
import { loadWorkspacePolicy, policyPath, PolicyFileError } from '../policy/load-policy.ts';
import { ServiceError } from './service-error.ts';

/**
 * Throws a `refused` ServiceError when `by` may not open a sensitive value of a run in
 * `workspaceDir`; returns when they may.
 *
 * @example
 * refuseUnlessOpener(run.workspaceDir, 'bob'); // throws: policy rule sensitive.openers of … lets only alice …
 */
export function refuseUnlessOpener(workspaceDir: string, by: string): void {
  let refusal: string | undefined;
  try {
    refusal = openerRefusal(loadWorkspacePolicy(workspaceDir)?.rules, by, policyPath(workspaceDir));
  } catch (e) {
    if (!(e instanceof PolicyFileError)) throw e;
    throw new ServiceError('refused', `${e.message}\nnothing was opened or recorded: who may open sensitive values is decided by that file`);
  }
  if (refusal !== undefined) throw new ServiceError('refused', refusal);
}
