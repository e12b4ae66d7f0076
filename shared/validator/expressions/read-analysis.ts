// What one read of an expression amounts to: where its data comes from, whether that source has
// certainly finished with an output before the reader, whether the read sits behind an `$exists`
// guard, whether the source's schema declares the field, and the finding the validator reports for
// it. One function for both the validator's expression check and the editor's data-handoff view,
// so the two can never disagree.
import type { Workflow } from '../../definition/workflow-schema.ts';
import { suggest } from '../checks/ids-and-references.ts';
import type { BitsetTable } from '../graph/bitset.ts';
import { guaranteedBefore } from '../graph/guaranteed-before.ts';
import { LoopReach } from '../graph/loop-reach.ts';
import type { GraphEdge, WorkflowGraph } from '../graph/workflow-graph.ts';
import { outputSchemaOf } from '../schema/implicit-outputs.ts';
import { walkSchema } from '../schema/schema-path.ts';
import type { Finding } from '../validation-context.ts';
import { guardedReadPositions } from './exists-guards.ts';
import { WORKFLOW_OUTPUT, type ExpressionSite } from './expression-sites.ts';
import type { Shape } from './expression-shape.ts';
import type { AstNode } from './jsonata-ast.ts';
import { referencesOf, type Reference } from './references.ts';

/** The fields a run exposes to expressions as `run.<field>`. */
export const RUN_FIELDS = ['id', 'workflowId', 'version', 'inputRevision', 'startedAt'];

/**
 * Where a read's data comes from. `step` covers `steps.X…` and `output…` (the reader's own or the
 * edge's from-step); `unresolved` is a read of no known source (an unknown step id, `output` where
 * it is not defined, or the whole `steps` object).
 */
export type ReadSource =
  | { kind: 'input' }
  | { kind: 'run' }
  | { kind: 'step'; node: number }
  | { kind: 'unresolved'; name: string };

export interface AnalyzedRead {
  ref: Reference;
  /** Offset of the read inside the string at the site's path (site offset + the root token's position). */
  position: number | undefined;
  source: ReadSource;
  /** The source has finished before the reader evaluates this, by the validator's rule. */
  finished: boolean;
  /** The loop edge the source is seen back through, when it is seen only that way. */
  loopEdge: GraphEdge | undefined;
  /** The read sits behind an `$exists(steps.X.output)` guard (computed on first ask). */
  guarded: () => boolean;
  /** The source's schema declares the field: null when there is no schema or it is open there. */
  declared: boolean | null;
  /** Where the walk left the schema: the names read up to and including the first undeclared one. */
  undeclaredAt: number | undefined;
  /** What the validator reports for this read, if anything. */
  finding: Finding | undefined;
}

/**
 * The graph facts reads are judged against, built once per workflow on first use: the
 * guaranteed-before table and loop reachability.
 *
 * @example
 * const scope = new ReadScope(graph, workflow);
 * for (const read of scope.readsOf(site, parsed.ast, parsed.shape)) if (read.finding) report(read.finding);
 */
export class ReadScope {
  private beforeTable: BitsetTable | undefined;
  private loopReach: LoopReach | undefined;

  constructor(
    readonly graph: WorkflowGraph,
    readonly workflow: Workflow,
  ) {}

  /** Row v: the steps certainly finished with an output before step v starts. */
  get before(): BitsetTable {
    return (this.beforeTable ??= guaranteedBefore(this.graph));
  }

  get loops(): LoopReach {
    return (this.loopReach ??= new LoopReach(this.graph));
  }

  /** Every read of one parsed expression at `site`, in the order `referencesOf` finds them. */
  readsOf(site: ExpressionSite, ast: AstNode, shape: Shape | undefined): AnalyzedRead[] {
    const refs = referencesOf(ast, shape);
    if (refs.length === 0) return [];
    let guardedSet: Set<number> | undefined;
    const guardedAt = (p: number | undefined): boolean =>
      p !== undefined && (guardedSet ??= guardedReadPositions(ast, shape)).has(p);
    return refs.map((ref) => this.analyze(site, ref, () => guardedAt(ref.position)));
  }

  private analyze(site: ExpressionSite, ref: Reference, guarded: () => boolean): AnalyzedRead {
    const position = ref.position === undefined ? undefined : site.offset + ref.position;
    const base = { ref, position, guarded, finished: true, loopEdge: undefined, declared: null, undeclaredAt: undefined, finding: undefined };
    if (ref.root === 'input') {
      const walk = walkSchema(this.workflow.input, ref.names);
      if (walk.status !== 'undeclared') return { ...base, source: { kind: 'input' }, declared: declaredOf(walk.status, this.workflow.input !== undefined) };
      return {
        ...base,
        source: { kind: 'input' },
        declared: false,
        undeclaredAt: walk.index,
        finding: {
          code: 'undeclared-field',
          message: `reads input.${ref.names.slice(0, walk.index + 1).join('.')}, which the workflow's input schema does not declare`,
          hint: `declare it in the top-level "input" schema or read one of: ${walk.known.join(', ') || 'none declared'}${suggest(ref.names[walk.index] ?? '', walk.known)}`,
        },
      };
    }
    if (ref.root === 'run') {
      const field = ref.names[0];
      if (field === undefined || RUN_FIELDS.includes(field)) return { ...base, source: { kind: 'run' }, declared: true };
      return {
        ...base,
        source: { kind: 'run' },
        declared: false,
        undeclaredAt: 0,
        finding: {
          code: 'undeclared-field',
          message: `reads run.${field}; a run has ${RUN_FIELDS.join(', ')}`,
          hint: `use one of those fields${suggest(field, RUN_FIELDS)}`,
        },
      };
    }
    if (ref.root === 'output') {
      if (site.outputOf === undefined) {
        return {
          ...base,
          source: { kind: 'unresolved', name: 'output' },
          finished: false,
          finding: {
            code: 'missing-dependency',
            message: '"output" is only defined in edge conditions and accept rules',
            hint: 'read another step\'s result as steps.<id>.output',
          },
        };
      }
      return { ...base, source: { kind: 'step', node: site.outputOf }, ...this.fields(site.outputOf, 'output', ref.names) };
    }
    return { ...base, ...this.stepRead(site, ref, guarded) };
  }

  /** `steps.X.output…`: is X known, finished before the reader, read through a loop, declared? */
  private stepRead(site: ExpressionSite, ref: Reference, guarded: () => boolean): Omit<AnalyzedRead, 'ref' | 'position' | 'guarded'> {
    const { graph } = this;
    const [stepId, field, ...rest] = ref.names;
    const none = { finished: true, loopEdge: undefined, declared: null, undeclaredAt: undefined, finding: undefined };
    if (stepId === undefined) return { ...none, source: { kind: 'unresolved', name: 'steps' } };
    const x = graph.indexOf.get(stepId);
    if (x === undefined) {
      return {
        ...none,
        source: { kind: 'unresolved', name: stepId },
        finished: false,
        finding: {
          code: 'unknown-step-reference',
          message: `reads steps.${stepId}, but no step has id "${stepId}"`,
          hint: `use the id of an existing step${suggest(stepId, graph.indexOf.keys())}`,
        },
      };
    }
    const source = { kind: 'step', node: x } as const;
    const shape = field === undefined
      ? { declared: null, undeclaredAt: undefined, finding: undefined }
      : field !== 'output'
        ? {
            declared: false,
            undeclaredAt: 1,
            finding: {
              code: 'undeclared-field',
              message: `reads steps.${stepId}.${field}; a step exposes only steps.${stepId}.output`,
              hint: `read steps.${stepId}.output${rest.length > 0 ? `.${rest.join('.')}` : ''}`,
            },
          }
        : this.fields(x, `steps.${stepId}.output`, rest, 2);
    // The workflow's output is read when the run ends: a step it names may not have run (a branch
    // not taken), which JSONata reads as nothing, so only names and fields are checked there.
    const finished = site.reader === WORKFLOW_OUTPUT || this.before.has(site.reader, x) || (site.readerDone && x === site.reader);
    // A step seen only back through a loop edge (a loop's tail from its head, or a step's own
    // previous pass) has an output from the second pass on: readable behind an $exists guard.
    const loopEdge = finished || site.reader === WORKFLOW_OUTPUT ? undefined : this.loops.loopEdgeBehind(x, site.reader);
    if (loopEdge !== undefined && !guarded()) {
      const readerId = graph.step(site.reader).id;
      const where = site.edge ? `the condition of edge "${site.edge.edge.id}"` : `step "${readerId}"`;
      const read = `steps.${stepId}${field === undefined ? '' : `.${[field, ...rest].join('.')}`}`;
      return {
        source, finished, loopEdge, declared: shape.declared, undeclaredAt: shape.undeclaredAt,
        finding: {
          code: 'unguarded-loop-read',
          message: x === site.reader
            ? `${where} reads its own previous output, which exists only after the loop edge "${loopEdge.edge.id}" has brought the run back; on the first pass there is none`
            : `${where} reads steps.${stepId}, which runs after "${readerId}" and has an output only once the loop edge "${loopEdge.edge.id}" has brought the run back; on the first pass there is none`,
          hint: `guard the read and say what the first pass uses: $exists(steps.${stepId}.output) ? ${read} : <first-pass value>`,
        },
      };
    }
    if (!finished && loopEdge === undefined) {
      const readerId = graph.step(site.reader).id;
      const where = site.edge ? `the condition of edge "${site.edge.edge.id}"` : `step "${readerId}"`;
      return {
        source, finished, loopEdge, declared: shape.declared, undeclaredAt: shape.undeclaredAt,
        finding: {
          code: 'missing-dependency',
          message: x === site.reader
            ? `step "${readerId}" reads its own output before it has run`
            : `${where} reads steps.${stepId}, but "${stepId}" has not certainly finished with an output before "${readerId}" on every path`,
          hint: x === site.reader
            ? 'read the step\'s own result in accept or in an edge condition as output'
            : `make "${stepId}" finish on every path into "${readerId}" (an edge on succeeded, or an "all" join), read it after a join as steps.<join>.output.${stepId}, or read it in a later step`,
        },
      };
    }
    return { source, finished, loopEdge, ...shape };
  }

  /**
   * Checks `names` against the output schema of step `node`. `offset` is how many names of the
   * reference come before them (2 for `steps.X.output`), so `undeclaredAt` indexes the reference.
   */
  private fields(node: number, prefix: string, names: readonly string[], offset = 0): Pick<AnalyzedRead, 'declared' | 'undeclaredAt' | 'finding'> {
    const source = this.graph.step(node);
    const schema = outputSchemaOf(this.graph, node);
    if (schema === undefined) return { declared: null, undeclaredAt: undefined, finding: undefined };
    if (names.length === 0) return { declared: true, undeclaredAt: undefined, finding: undefined };
    const walk = walkSchema(schema, names);
    if (walk.status !== 'undeclared') return { declared: declaredOf(walk.status, true), undeclaredAt: undefined, finding: undefined };
    return {
      declared: false,
      undeclaredAt: offset + walk.index,
      finding: {
        code: 'undeclared-field',
        message: `reads ${prefix}.${names.slice(0, walk.index + 1).join('.')}, which the output schema of "${source.id}" does not declare`,
        hint: `declare it in "${source.id}".output or read one of: ${walk.known.join(', ') || 'none declared'}${suggest(names[walk.index] ?? '', walk.known)}`,
      },
    };
  }
}

const scopes = new WeakMap<WorkflowGraph, ReadScope>();

/** The one ReadScope of a graph, shared by the validator's checks (the expression reads, a received handoff). */
export function readScopeOf(graph: WorkflowGraph, workflow: Workflow): ReadScope {
  let scope = scopes.get(graph);
  if (scope === undefined) {
    scope = new ReadScope(graph, workflow);
    scopes.set(graph, scope);
  }
  return scope;
}

const declaredOf = (status: 'declared' | 'open', hasSchema: boolean): boolean | null =>
  hasSchema && status === 'declared' ? true : null;
