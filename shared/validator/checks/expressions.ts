// Expression syntax, data handoffs (missing dependencies, undeclared fields, unguarded reads
// through a loop) and conditions that cannot be boolean. One pass over every expression site of
// every step.
import type { Step } from '../../definition/workflow-schema.ts';
import { activationReads } from '../expressions/activation.ts';
import { shapeOf } from '../expressions/boolean-shape.ts';
import { guardedReadPositions } from '../expressions/exists-guards.ts';
import { expressionSitesOf, WORKFLOW_OUTPUT, workflowOutputSite, type ExpressionSite } from '../expressions/expression-sites.ts';
import type { AstNode } from '../expressions/jsonata-ast.ts';
import type { Shape } from '../expressions/expression-shape.ts';
import { referencesOf, type Reference } from '../expressions/references.ts';
import type { BitsetTable } from '../graph/bitset.ts';
import { guaranteedBefore } from '../graph/guaranteed-before.ts';
import { LoopReach } from '../graph/loop-reach.ts';
import { declaredType, walkSchema } from '../schema/schema-path.ts';
import { outputSchemaOf } from '../schema/implicit-outputs.ts';
import type { Finding, ValidationContext } from '../validation-context.ts';
import { suggest } from './ids-and-references.ts';

const RUN_FIELDS = ['id', 'workflowId', 'version', 'inputRevision', 'startedAt'];

/** What the reads of one expression are judged against; the graph parts are built on first use. */
interface Dataflow {
  before: BitsetTable;
  loops: LoopReach;
  /** Positions of the reads behind an `$exists` guard, in the expression being checked. */
  guarded: () => Set<number>;
}

export function checkExpressions(ctx: ValidationContext): void {
  const { graph, workflow } = ctx;
  let before: BitsetTable | undefined;
  let loops: LoopReach | undefined;
  const report = (site: ExpressionSite, f: Finding): void => {
    if (site.reader === WORKFLOW_OUTPUT) ctx.at(site.path, f);
    else if (site.edge) ctx.atEdge(site.edge, site.path, f, graph.step(site.reader).id);
    else ctx.atStep(site.reader, site.path, f);
  };
  const sites = [...Array.from({ length: graph.size }, (_, v) => expressionSitesOf(graph, v)).flat(), ...workflowOutputSite(workflow.output)];
  for (const site of sites) {
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
    const refs = referencesOf(parsed.ast, parsed.shape);
    if (refs.length > 0) {
      before ??= guaranteedBefore(graph);
      loops ??= new LoopReach(graph);
      let guarded: Set<number> | undefined;
      const flow: Dataflow = { before, loops, guarded: () => (guarded ??= guardedReadPositions(parsed.ast, parsed.shape)) };
      for (const ref of refs) checkReference(ctx, site, ref, flow, report);
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

function checkReference(
  ctx: ValidationContext,
  site: ExpressionSite,
  ref: Reference,
  flow: Dataflow,
  report: (site: ExpressionSite, f: Finding) => void,
): void {
  const { graph, workflow } = ctx;
  const position = ref.position === undefined ? {} : { position: site.offset + ref.position };
  if (ref.root === 'input') {
    const walk = walkSchema(workflow.input, ref.names);
    if (walk.status === 'undeclared') {
      report(site, {
        code: 'undeclared-field',
        message: `reads input.${ref.names.slice(0, walk.index + 1).join('.')}, which the workflow's input schema does not declare`,
        hint: `declare it in the top-level "input" schema or read one of: ${walk.known.join(', ') || 'none declared'}${suggest(ref.names[walk.index] ?? '', walk.known)}`,
        ...position,
      });
    }
    return;
  }
  if (ref.root === 'run') {
    const field = ref.names[0];
    if (field !== undefined && !RUN_FIELDS.includes(field)) {
      report(site, {
        code: 'undeclared-field',
        message: `reads run.${field}; a run has ${RUN_FIELDS.join(', ')}`,
        hint: `use one of those fields${suggest(field, RUN_FIELDS)}`,
        ...position,
      });
    }
    return;
  }
  if (ref.root === 'output') {
    if (site.outputOf === undefined) {
      report(site, {
        code: 'missing-dependency',
        message: '"output" is only defined in edge conditions and accept rules',
        hint: 'read another step\'s result as steps.<id>.output',
        ...position,
      });
      return;
    }
    checkFields(ctx, site, site.outputOf, 'output', ref.names, position, report);
    return;
  }
  // steps.X.output...
  const [stepId, field, ...rest] = ref.names;
  if (stepId === undefined) return;
  const x = graph.indexOf.get(stepId);
  if (x === undefined) {
    report(site, {
      code: 'unknown-step-reference',
      message: `reads steps.${stepId}, but no step has id "${stepId}"`,
      hint: `use the id of an existing step${suggest(stepId, graph.indexOf.keys())}`,
      ...position,
    });
    return;
  }
  // The workflow's output is read when the run ends: a step it names may not have run (a branch
  // not taken), which JSONata reads as nothing, so only names and fields are checked there.
  const finished = site.reader === WORKFLOW_OUTPUT || flow.before.has(site.reader, x) || (site.readerDone && x === site.reader);
  // A step seen only back through a loop edge (a loop's tail from its head, or a step's own
  // previous pass) has an output from the second pass on: readable behind an $exists guard.
  const loopEdge = finished || site.reader === WORKFLOW_OUTPUT ? undefined : flow.loops.loopEdgeBehind(x, site.reader);
  if (loopEdge !== undefined && !(ref.position !== undefined && flow.guarded().has(ref.position))) {
    const readerId = graph.step(site.reader).id;
    const where = site.edge ? `the condition of edge "${site.edge.edge.id}"` : `step "${readerId}"`;
    const read = `steps.${stepId}${field === undefined ? '' : `.${[field, ...rest].join('.')}`}`;
    report(site, {
      code: 'unguarded-loop-read',
      message: x === site.reader
        ? `${where} reads its own previous output, which exists only after the loop edge "${loopEdge.edge.id}" has brought the run back; on the first pass there is none`
        : `${where} reads steps.${stepId}, which runs after "${readerId}" and has an output only once the loop edge "${loopEdge.edge.id}" has brought the run back; on the first pass there is none`,
      hint: `guard the read and say what the first pass uses: $exists(steps.${stepId}.output) ? ${read} : <first-pass value>`,
      ...position,
    });
    return;
  }
  if (!finished && loopEdge === undefined) {
    const readerId = graph.step(site.reader).id;
    const where = site.edge ? `the condition of edge "${site.edge.edge.id}"` : `step "${readerId}"`;
    report(site, {
      code: 'missing-dependency',
      message: x === site.reader
        ? `step "${readerId}" reads its own output before it has run`
        : `${where} reads steps.${stepId}, but "${stepId}" has not certainly finished with an output before "${readerId}" on every path`,
      hint: x === site.reader
        ? 'read the step\'s own result in accept or in an edge condition as output'
        : `make "${stepId}" finish on every path into "${readerId}" (an edge on succeeded, or an "all" join), read it after a join as steps.<join>.output.${stepId}, or read it in a later step`,
      ...position,
    });
    return;
  }
  if (field === undefined) return;
  if (field !== 'output') {
    report(site, {
      code: 'undeclared-field',
      message: `reads steps.${stepId}.${field}; a step exposes only steps.${stepId}.output`,
      hint: `read steps.${stepId}.output${rest.length > 0 ? `.${rest.join('.')}` : ''}`,
      ...position,
    });
    return;
  }
  checkFields(ctx, site, x, `steps.${stepId}.output`, rest, position, report);
}

function checkFields(
  ctx: ValidationContext,
  site: ExpressionSite,
  sourceNode: number,
  prefix: string,
  names: readonly string[],
  position: { position?: number },
  report: (site: ExpressionSite, f: Finding) => void,
): void {
  const source: Step = ctx.graph.step(sourceNode);
  const schema = outputSchemaOf(ctx.graph, sourceNode);
  if (schema === undefined || names.length === 0) return;
  const walk = walkSchema(schema, names);
  if (walk.status !== 'undeclared') return;
  report(site, {
    code: 'undeclared-field',
    message: `reads ${prefix}.${names.slice(0, walk.index + 1).join('.')}, which the output schema of "${source.id}" does not declare`,
    hint: `declare it in "${source.id}".output or read one of: ${walk.known.join(', ') || 'none declared'}${suggest(names[walk.index] ?? '', walk.known)}`,
    ...position,
  });
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
