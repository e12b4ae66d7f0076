// Expression syntax, data handoffs (missing dependencies, undeclared fields, unguarded reads
// through a loop; judged in expressions/read-analysis.ts, which the editor's handoff view shares)
// and conditions that cannot be boolean. One pass over every expression site of every step.
import { activationReads } from '../expressions/activation.ts';
import { shapeOf } from '../expressions/boolean-shape.ts';
import { allExpressionSites, WORKFLOW_OUTPUT, type ExpressionSite } from '../expressions/expression-sites.ts';
import type { AstNode } from '../expressions/jsonata-ast.ts';
import type { Shape } from '../expressions/expression-shape.ts';
import { readScopeOf } from '../expressions/read-analysis.ts';
import { referencesOf } from '../expressions/references.ts';
import { declaredType, walkSchema } from '../schema/schema-path.ts';
import { outputSchemaOf } from '../schema/implicit-outputs.ts';
import type { Finding, ValidationContext } from '../validation-context.ts';

export function checkExpressions(ctx: ValidationContext): void {
  const { graph, workflow } = ctx;
  const scope = readScopeOf(graph, workflow);
  const report = (site: ExpressionSite, f: Finding): void => {
    if (site.reader === WORKFLOW_OUTPUT) ctx.at(site.path, f);
    else if (site.edge) ctx.atEdge(site.edge, site.path, f, graph.step(site.reader).id);
    else ctx.atStep(site.reader, site.path, f);
  };
  for (const site of allExpressionSites(graph, workflow.output)) {
    const parsed = ctx.expressions.parse(site.text);
    if (!parsed.ok) {
      const at = parsed.position === undefined ? undefined : site.offset + parsed.position;
      report(site, {
        code: 'expression-syntax',
        message: `JSONata syntax error${at === undefined ? '' : ` at character ${at}`} in "${clip(site.text)}": ${parsed.message}`,
        hint: 'fix the expression; try it at the JSONata exerciser with sample data',
        ...(at === undefined ? {} : { position: at }),
      });
      continue;
    }
    for (const read of scope.readsOf(site, parsed.ast, parsed.shape)) {
      if (read.finding) report(site, { ...read.finding, ...(read.position === undefined ? {} : { position: read.position }) });
    }
    if (site.reader === WORKFLOW_OUTPUT) {
      for (const at of activationReads(parsed.ast, parsed.shape)) {
        report(site, {
          code: 'undeclared-field',
          message: 'reads $activation, the activation number of the step that evaluates an expression; the workflow\'s output is evaluated by no step',
          hint: 'read the count in a step (say, a transform with "$activation") and its output here as steps.<id>.output',
          position: site.offset + at,
        });
      }
    }
    if (site.condition) {
      const shape = shapeOf(parsed.ast, (path) => typeOfPath(ctx, site, path, parsed.shape));
      if (shape === 'non-boolean') {
        report(site, {
          code: 'non-boolean-condition',
          message: `"${clip(site.text)}" gives a ${describeNonBoolean(parsed.ast)}, not true or false`,
          hint: 'write a comparison such as output.score > 0.8 or output.status = "ok"',
        });
      }
    }
  }
}

function typeOfPath(ctx: ValidationContext, site: ExpressionSite, path: AstNode, shape: Shape | undefined): string | undefined {
  const [ref] = referencesOf(path, shape);
  if (ref === undefined) return undefined;
  let schema: unknown;
  let names: readonly string[] = ref.names;
  if (ref.root === 'output' && site.outputOf !== undefined) schema = outputSchemaOf(ctx.graph, site.outputOf);
  else if (ref.root === 'input') schema = ctx.workflow.input;
  else if (ref.root === 'steps' && ref.names[1] === 'output') {
    const x = ctx.graph.indexOf.get(ref.names[0] ?? '');
    schema = x === undefined ? undefined : outputSchemaOf(ctx.graph, x);
    names = ref.names.slice(2);
  }
  if (schema === undefined || path.steps?.some((s) => s.stages || s.predicate)) return undefined;
  const walk = walkSchema(schema, names);
  return walk.status === 'declared' ? declaredType(walk.schema) : undefined;
}

function describeNonBoolean(ast: AstNode): string {
  if (ast.type === 'string') return 'string';
  if (ast.type === 'number') return 'number';
  if (ast.type === 'path') return 'value that is not a boolean (by its schema)';
  return 'value that is not a boolean';
}

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
