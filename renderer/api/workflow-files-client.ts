// The editor's calls that write workflow files: save, create, rename, import, export, delete, the
// templates, and the versions a history panel lists, each a route of shared/api/routes.ts made
// with callRoute. As in api-client.ts, every answer is parsed with its route's schema and every
// error body becomes an ApiError with its code, message and path (a 409 `refused` on save means
// the file changed on disk, or the id is taken).
import type { z } from 'zod';
import { callRoute, routeCallError, routeInit, routeUrl, type RouteClient } from '../../shared/api/call-route.ts';
import { ROUTES, type RouteAnswerOf, type Routes } from '../../shared/api/routes.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { routeClient } from './http.ts';

/** A downloaded file: its name and its exact text. */
export interface ExportedFile {
  fileName: string;
  text: string;
}

type WorkflowFileResult = RouteAnswerOf<'workflows.save'>;

export class WorkflowFilesClient {
  private readonly client: RouteClient;

  constructor(token: string, base = '') {
    this.client = routeClient(token, base);
  }

  /** The workflow with its file's hash (send it back as `expectedHash`) and its versions, with run counts. */
  detail(id: string): Promise<RouteAnswerOf<'workflows.get'>> {
    return callRoute(this.client, 'workflows.get', { params: { id } });
  }

  /** One version the store holds: one that has run, or one saved and never run. */
  version(id: string, version: number): Promise<RouteAnswerOf<'workflows.version'>> {
    return callRoute(this.client, 'workflows.version', { params: { id, version } });
  }

  /**
   * Saves the definition into its file. `bumped` in the answer says the version edited had run
   * and the save became version `bumped.to`; `unchanged` that the file already held these bytes.
   *
   * @example
   * const r = await files.save(doc, loaded.fileHash);
   * if (r.bumped) notify(`version ${r.bumped.from} has run: saved as version ${r.bumped.to}`);
   */
  save(definition: Workflow, expectedHash?: string): Promise<WorkflowFileResult> {
    const body = ROUTES['workflows.save'].body.parse({ definition, ...(expectedHash === undefined ? {} : { expectedHash }) });
    return callRoute(this.client, 'workflows.save', { params: { id: definition.id }, body });
  }

  /** A new workflow, `empty` (the default) or from a template's id. */
  create(request: z.input<Routes['workflows.create']['body']>): Promise<WorkflowFileResult> {
    return callRoute(this.client, 'workflows.create', { body: ROUTES['workflows.create'].body.parse(request) });
  }

  rename(id: string, to: string): Promise<WorkflowFileResult> {
    return callRoute(this.client, 'workflows.rename', { params: { id }, body: { to } });
  }

  /** Imports a `.weft.json` file's text; `replace` overwrites the workflow with the same id. */
  import(text: string, replace = false): Promise<WorkflowFileResult> {
    return callRoute(this.client, 'workflows.import', { body: ROUTES['workflows.import'].body.parse({ text, ...(replace ? { replace } : {}) }) });
  }

  /** Deletes the file; the store keeps its versions. */
  remove(id: string): Promise<RouteAnswerOf<'workflows.delete'>> {
    return callRoute(this.client, 'workflows.delete', { params: { id } });
  }

  templates(): Promise<RouteAnswerOf<'templates.list'>> {
    return callRoute(this.client, 'templates.list', {});
  }

  /** The file's exact text, as a download would save it (the route's answer is read as text, not parsed). */
  async exportFile(id: string): Promise<ExportedFile> {
    const response = await this.client.fetch(`${this.client.base}${routeUrl('workflows.export', { id })}`, routeInit('workflows.export', this.client.token));
    if (!response.ok) throw await routeCallError('workflows.export', response);
    return { fileName: `${id}.weft.json`, text: await response.text() };
  }
}
