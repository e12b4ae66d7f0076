// The routes of the workspace policy (docs/policies.md): the app's policy page reads the file with
// its findings and saves a new text, which the service writes atomically only when it is valid.
import type { EngineService } from '../service/engine-service.ts';
import { policyFileView, savePolicyFile } from '../service/policy-file-service.ts';
import type { RouteHandlers } from './register-routes.ts';

export function policyHandlers(s: EngineService): Pick<RouteHandlers, 'policy.get' | 'policy.save'> {
  return {
    'policy.get': () => policyFileView(s.files),
    'policy.save': ({ body }) => savePolicyFile(s.files, body),
  };
}
