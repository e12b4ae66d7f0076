// The handlers of the routes that write workflow files (the app's editor): save, create, rename,
// import, export, delete, and the templates to start from. They sit behind the same guards as
// every /api/ route (Host, Origin, token: create-server.ts); bodies are JSON, parsed with
// shared/api/workflow-files.ts in the service. The service's refusals carry their status (400, 404, 409).
import type { EngineService } from '../service/engine-service.ts';
import type { RouteHandlers } from './register-routes.ts';

type WorkflowFileRoute = 'templates.list' | 'workflows.create' | 'workflows.import' | 'workflows.save' | 'workflows.rename' | 'workflows.delete' | 'workflows.export';

export function workflowFileHandlers(s: EngineService): Pick<RouteHandlers, WorkflowFileRoute> {
  return {
    'templates.list': () => ({ templates: s.workflowFiles.templateList() }),
    'workflows.create': async ({ body }, answer) => {
      const result = await s.workflowFiles.create(body);
      answer.status(201);
      return result;
    },
    'workflows.import': async ({ body }, answer) => {
      const result = await s.workflowFiles.import(body);
      if (!result.unchanged) answer.status(201);
      return result;
    },
    'workflows.save': ({ params, body }) => s.workflowFiles.save(params.id, body),
    'workflows.rename': ({ params, body }) => s.workflowFiles.rename(params.id, body),
    'workflows.delete': ({ params }) => s.workflowFiles.remove(params.id),
    'workflows.export': ({ params }) => s.workflowFiles.exportFile(params.id),
  };
}
