// The routes that write workflow files (the app's editor): save, create, rename, import, export,
// delete, and the templates to start from. They sit behind the same guards as every /api/ route
// (Host, Origin, token: create-server.ts); bodies are JSON, parsed with shared/api/workflow-files.ts
// in the service. The service's refusals carry their status (400, 404, 409).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { WorkflowId } from '../../shared/api/api-ids.ts';
import { CreateWorkflowRequest, ImportWorkflowRequest, RenameWorkflowRequest, SaveWorkflowRequest } from '../../shared/api/workflow-files.ts';
import type { EngineService } from '../service/engine-service.ts';
import { parseCommand } from '../service/parse-command.ts';

const WorkflowParams = z.strictObject({ id: WorkflowId });


const workflowId = (request: FastifyRequest): string => parseCommand(WorkflowParams, request.params, 'the workflow id').id;

export function registerWorkflowFiles(app: FastifyInstance, s: EngineService): void {
  app.get('/api/templates', async () => ({ templates: s.workflowFiles.templateList() }));

  app.post('/api/workflows', async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await s.workflowFiles.create(parseCommand(CreateWorkflowRequest, request.body, 'the request'));
    reply.code(201);
    return result;
  });

  // Before /api/workflows/:id/..., which it would otherwise look like to a reader; fastify
  // prefers the static segment anyway.
  app.post('/api/workflows/import', async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await s.workflowFiles.import(parseCommand(ImportWorkflowRequest, request.body, 'the request'));
    if (!result.unchanged) reply.code(201);
    return result;
  });

  app.put('/api/workflows/:id', async (request: FastifyRequest) => s.workflowFiles.save(workflowId(request), parseCommand(SaveWorkflowRequest, request.body, 'the request')));

  app.post('/api/workflows/:id/rename', async (request: FastifyRequest) => s.workflowFiles.rename(workflowId(request), parseCommand(RenameWorkflowRequest, request.body, 'the request')));

  app.delete('/api/workflows/:id', async (request: FastifyRequest) => s.workflowFiles.remove(workflowId(request)));

  app.get('/api/workflows/:id/file', async (request: FastifyRequest, reply: FastifyReply) => {
    const { fileName, bytes } = await s.workflowFiles.exportFile(workflowId(request));
    // The id is a slug, so the name needs no quoting beyond the quotes.
    reply.header('content-disposition', `attachment; filename="${fileName}"`);
    reply.type('application/json; charset=utf-8');
    return reply.send(bytes);
  });
}
