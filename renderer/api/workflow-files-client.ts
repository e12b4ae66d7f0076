// The editor's calls that write workflow files: save, create, rename, import, export, delete, the
// templates, and the versions a history panel lists. As in api-client.ts, every answer is parsed
// with its shared/api schema and every error body becomes an ApiError with its code, message and
// path (a 409 `refused` on save means the file changed on disk, or the id is taken).
import type { z } from 'zod';
import { call, errorOf, send } from './http.ts';
import {
  CreateWorkflowRequest,
  DeleteWorkflowResult,
  ImportWorkflowRequest,
  SaveWorkflowRequest,
  TemplateList,
  WorkflowFileResult,
} from '../../shared/api/workflow-files.ts';
import { WorkflowDetail, WorkflowVersionDetail } from '../../shared/api/workflow-views.ts';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';

/** A downloaded file: its name and its exact text. */
export interface ExportedFile {
  fileName: string;
  text: string;
}

export class WorkflowFilesClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  /** The workflow with its file's hash (send it back as `expectedHash`) and its versions, with run counts. */
  detail(id: string): Promise<WorkflowDetail> {
    return this.call('GET', `/api/workflows/${encodeURIComponent(id)}`, undefined, WorkflowDetail);
  }

  /** One version the store holds: one that has run, or one saved and never run. */
  version(id: string, version: number): Promise<WorkflowVersionDetail> {
    return this.call('GET', `/api/workflows/${encodeURIComponent(id)}/versions/${version}`, undefined, WorkflowVersionDetail);
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
    const body = SaveWorkflowRequest.parse({ definition, ...(expectedHash === undefined ? {} : { expectedHash }) });
    return this.call('PUT', `/api/workflows/${encodeURIComponent(definition.id)}`, body, WorkflowFileResult);
  }

  /** A new workflow, `empty` (the default) or from a template's id. */
  create(request: z.input<typeof CreateWorkflowRequest>): Promise<WorkflowFileResult> {
    return this.call('POST', '/api/workflows', CreateWorkflowRequest.parse(request), WorkflowFileResult);
  }

  rename(id: string, to: string): Promise<WorkflowFileResult> {
    return this.call('POST', `/api/workflows/${encodeURIComponent(id)}/rename`, { to }, WorkflowFileResult);
  }

  /** Imports a `.weft.json` file's text; `replace` overwrites the workflow with the same id. */
  import(text: string, replace = false): Promise<WorkflowFileResult> {
    return this.call('POST', '/api/workflows/import', ImportWorkflowRequest.parse({ text, ...(replace ? { replace } : {}) }), WorkflowFileResult);
  }

  /** Deletes the file; the store keeps its versions. */
  remove(id: string): Promise<DeleteWorkflowResult> {
    return this.call('DELETE', `/api/workflows/${encodeURIComponent(id)}`, undefined, DeleteWorkflowResult);
  }

  templates(): Promise<TemplateList> {
    return this.call('GET', '/api/templates', undefined, TemplateList);
  }

  /** The file's exact text, as a download would save it. */
  async exportFile(id: string): Promise<ExportedFile> {
    const path = `/api/workflows/${encodeURIComponent(id)}/file`;
    const response = await send(this.base, this.token, path);
    if (!response.ok) throw await errorOf(response, path);
    return { fileName: `${id}.weft.json`, text: await response.text() };
  }

  private call<S extends z.ZodType>(method: string, path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    return call(this.base, this.token, path, schema, body === undefined ? { method } : { method, body });
  }

}
