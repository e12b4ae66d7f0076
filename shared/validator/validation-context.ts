// What every check receives: the workflow, its graph, shared parse caches and a sink for findings.
import type { Workflow } from '../definition/workflow-schema.ts';
import { formatPath, type Diagnostic, type Severity } from './diagnostic.ts';
import { ExpressionCache } from './expressions/expression-cache.ts';
import type { GraphEdge } from './graph/workflow-graph.ts';
import { WorkflowGraph } from './graph/workflow-graph.ts';
import { JsonSchemaChecker } from './schema/json-schema-check.ts';

export interface Finding {
  code: string;
  severity?: Severity;
  message: string;
  hint: string;
  position?: number;
}

export class ValidationContext {
  readonly graph: WorkflowGraph;
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly workflow: Workflow,
    readonly expressions: ExpressionCache,
    readonly schemas: JsonSchemaChecker,
  ) {
    this.graph = new WorkflowGraph(workflow);
  }

  /** A finding about the step at graph node `v`; `rest` continues the JSON path inside it. */
  atStep(v: number, rest: readonly PropertyKey[], f: Finding): void {
    const step = this.graph.step(v);
    this.push(f, ['steps', this.graph.stepFileIndex[v] ?? 0, ...rest], step.id, undefined);
  }

  atEdge(e: GraphEdge, rest: readonly PropertyKey[], f: Finding, stepId?: string): void {
    this.push(f, ['edges', e.fileIndex, ...rest], stepId, e.edge.id);
  }

  /** A finding located by a raw path (for steps and edges that did not make it into the graph). */
  at(path: readonly PropertyKey[], f: Finding, ids: { stepId?: string; edgeId?: string } = {}): void {
    this.push(f, path, ids.stepId, ids.edgeId);
  }

  private push(f: Finding, path: readonly PropertyKey[], stepId: string | undefined, edgeId: string | undefined): void {
    this.diagnostics.push({
      code: f.code,
      severity: f.severity ?? 'error',
      ...(stepId === undefined ? {} : { stepId }),
      ...(edgeId === undefined ? {} : { edgeId }),
      path: formatPath(path),
      message: f.message,
      hint: f.hint,
      ...(f.position === undefined ? {} : { position: f.position }),
    });
  }
}
