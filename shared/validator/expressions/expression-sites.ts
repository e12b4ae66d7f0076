// Every place a definition holds a JSONata expression or a template, with what it may read.
import type { Step } from '../../definition/workflow-schema.ts';
import type { z } from 'zod';
import type { HttpConfig } from '../../definition/step-config.ts';
import type { WorkflowGraph, GraphEdge } from '../graph/workflow-graph.ts';
import { placeholdersOf } from './template.ts';

export interface ExpressionSite {
  text: string;
  /** Offset of `text` inside the JSON string at `path` (non-zero for template placeholders). */
  offset: number;
  /** JSON path from the step (or edge) to the string holding the expression. */
  path: PropertyKey[];
  /** Graph node of the step that evaluates it; for an edge, its `from` step; WORKFLOW_OUTPUT for the workflow's `output`. */
  reader: number;
  edge?: GraphEdge;
  /** Which step `output` means here: the edge's from-step, or the step itself in `accept`. */
  outputOf?: number;
  /** The reader itself has finished when this is evaluated (edge conditions, accept rules). */
  readerDone: boolean;
  /** Must evaluate to a boolean. */
  condition: boolean;
}

/** The reader of the workflow's own `output` expression, evaluated when the run ends (no step). */
export const WORKFLOW_OUTPUT = -1;

/** The workflow's `output` expression: read when the run ends, when every step that ran has finished. */
export function workflowOutputSite(output: string | undefined): ExpressionSite[] {
  return output === undefined ? [] : [{ text: output, offset: 0, path: ['output'], reader: WORKFLOW_OUTPUT, readerDone: true, condition: false }];
}

/** Every expression site of a workflow: each step's (in graph order, its edges' conditions with it), then the workflow's output. */
export function allExpressionSites(graph: WorkflowGraph, output: string | undefined): ExpressionSite[] {
  return [...Array.from({ length: graph.size }, (_, v) => expressionSitesOf(graph, v)).flat(), ...workflowOutputSite(output)];
}

export function expressionSitesOf(graph: WorkflowGraph, v: number): ExpressionSite[] {
  const step = graph.step(v);
  const sites: ExpressionSite[] = [];
  const expr = (text: string | undefined, path: PropertyKey[], extra: Partial<ExpressionSite> = {}): void => {
    if (text !== undefined) sites.push({ text, offset: 0, path, reader: v, readerDone: false, condition: false, ...extra });
  };
  const template = (text: string | undefined, path: PropertyKey[]): void => {
    if (text === undefined) return;
    for (const p of placeholdersOf(text)) {
      sites.push({ text: p.expression, offset: p.offset, path, reader: v, readerDone: false, condition: false });
    }
  };
  expr(step.input, ['input']);
  expr(step.idempotencyKey, ['idempotencyKey']);
  expr(step.accept, ['accept'], { outputOf: v, readerDone: true, condition: true });
  // An agent's confidence rule reads its output, like accept (docs/routing.md).
  if (step.kind === 'agent') expr(step.config.choose?.confidence?.expression, ['config', 'choose', 'confidence', 'expression'], { outputOf: v, readerDone: true });
  configSites(step, expr, template);
  // A revalidate check reads the step's own output as it resumes (docs/long-running.md); so do
  // the templates and expressions of the read it runs first (`revalidate.fetch`).
  // (A command or a script has no expressions in its config.)
  const fetch = step.revalidate?.fetch;
  if (fetch?.kind === 'http') {
    const at = (path: PropertyKey[]): PropertyKey[] => ['revalidate', 'fetch', ...path];
    httpSites(fetch.config, (text, path) => expr(text, at(path), { outputOf: v, readerDone: true }), (text, path) => {
      for (const p of placeholdersOf(text ?? '')) sites.push({ text: p.expression, offset: p.offset, path: at(path), reader: v, outputOf: v, readerDone: true, condition: false });
    });
  }
  expr(step.revalidate?.check, ['revalidate', 'check'], { outputOf: v, readerDone: true, condition: true });
  for (const e of graph.out[v] ?? []) {
    if (e.edge.when !== undefined) {
      sites.push({ text: e.edge.when, offset: 0, path: ['when'], reader: v, edge: e, outputOf: v, readerDone: true, condition: true });
    }
  }
  return sites;
}

type Add = (text: string | undefined, path: PropertyKey[]) => void;

/** An http config's templates (url, headers) and its body expression: a step's, or a revalidate fetch's. */
function httpSites(config: z.infer<typeof HttpConfig>, expr: Add, template: Add): void {
  template(config.url, ['config', 'url']);
  for (const [k, h] of Object.entries(config.headers ?? {})) template(h, ['config', 'headers', k]);
  expr(config.body, ['config', 'body']);
}

function configSites(step: Step, expr: Add, template: Add): void {
  switch (step.kind) {
    case 'agent':
      template(step.config.prompt, ['config', 'prompt']);
      template(step.config.system, ['config', 'system']);
      expr(step.config.choose?.matchTags, ['config', 'choose', 'matchTags']);
      return;
    case 'http':
      httpSites(step.config, expr, template);
      return;
    case 'human':
      template(step.config.title, ['config', 'title']);
      template(step.config.instructions, ['config', 'instructions']);
      return;
    case 'wait':
      expr(step.config.until, ['config', 'until']);
      return;
    case 'event':
      expr(step.config.correlationKey, ['config', 'correlationKey']);
      return;
    case 'map':
      expr(step.config.items, ['config', 'items']);
      return;
    case 'transform':
      expr(step.config.expression, ['config', 'expression']);
      return;
    // No expressions or templates in their config.
    case 'script':
    case 'command':
    case 'router':
    case 'join':
    case 'subworkflow':
    case 'end':
      return;
    default:
      // A kind with no case above does not compile: say where its config has expressions.
      return step satisfies never;
  }
}
