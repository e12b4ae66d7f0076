// The workflows a new one can start from: the `*.weft.json` files of a folder (Weft's examples,
// found by engine/server/templates-dir.ts). A file that is not a workflow is left out of the list.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TemplateSummary } from '../../shared/api/workflow-files.ts';
import { ServiceError } from './service-error.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

export class WorkflowTemplates {
  constructor(private readonly dir: string | undefined) {}

  list(): TemplateSummary[] {
    return this.load().map(({ workflow: w }) => ({ id: w.id, name: w.name, description: w.description ?? null, stepCount: w.steps.length, kinds: [...new Set(w.steps.map((s) => s.kind))] }));
  }

  /** The template's workflow. */
  get(id: string): Workflow {
    const found = this.load().find((t) => t.workflow.id === id);
    if (found === undefined) {
      const known = this.list().map((t) => t.id);
      throw new ServiceError('not-found', `no template "${id}"; use "empty" or one of: ${known.join(', ') || '(none installed)'} (GET /api/templates lists them)`, 'from');
    }
    return found.workflow;
  }

  private load(): { workflow: Workflow }[] {
    if (this.dir === undefined) return [];
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.weft.json')).sort();
    } catch {
      return [];
    }
    const out: { workflow: Workflow }[] = [];
    for (const name of names) {
      try {
        const value = Workflow.safeParse(JSON.parse(readFileSync(join(this.dir, name), 'utf8')));
        if (value.success) out.push({ workflow: value.data });
      } catch {
        // Not JSON: not a template.
      }
    }
    return out;
  }
}
