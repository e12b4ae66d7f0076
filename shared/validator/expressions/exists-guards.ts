// Which `steps.X` reads of an expression sit behind a guard that X has an output:
//   $exists(steps.X.output) ? <reads X> : <first pass>
//   $exists(steps.X.output) and <reads X>
// and the argument of `$exists` itself. A loop's head may read its tail this way: on the first
// pass the tail has not run, and the guard says what to do then. Guards nest and combine with
// `and` in a condition; an `or`, an else branch or a neighbour is not guarded.
import type { AstNode } from './jsonata-ast.ts';
import { forEachChild, isAstNode } from './jsonata-ast.ts';
import { realName, realPosition, type Shape } from './expression-shape.ts';

/**
 * The positions (as `referencesOf` reports them) of the guarded `steps.X` reads.
 *
 * @example
 * const parsed = cache.parse('$exists(steps.review.output) ? steps.review.output.reason : ""');
 * guardedReadPositions(parsed.ast, parsed.shape); // the positions of both `steps` tokens
 */
export function guardedReadPositions(ast: AstNode, shape?: Shape): Set<number> {
  // A shape's AST names every occurrence apart (n0, n1, …): guards compare real names. Not
  // cached: it is asked only about expressions that read through a loop.
  const real = new Set<number>();
  for (const p of walkGuards(ast, (n) => realName(shape, n))) real.add(realPosition(shape, p) ?? p);
  return real;
}

/** `steps.X…` as a path: the `steps` token and X, or undefined. `$$.steps.X` counts too. */
function stepsRead(node: AstNode, nameOf: (n: string) => string): { root: AstNode; step: string } | undefined {
  if (node.type !== 'path' || node.steps === undefined) return undefined;
  const first = node.steps[0];
  const start = first?.type === 'variable' && first.value === '$' && node.steps.length > 1 ? 1 : 0;
  const root = node.steps[start];
  const step = node.steps[start + 1];
  if (root?.type !== 'name' || root.value !== 'steps' || root.stages || root.predicate) return undefined;
  if (step?.type !== 'name' || typeof step.value !== 'string') return undefined;
  return { root, step: nameOf(step.value) };
}

/** `$exists(steps.X…)`: the read inside it. */
function existsCall(node: AstNode, nameOf: (n: string) => string): { root: AstNode; step: string } | undefined {
  if (node.type !== 'function' || node.procedure?.type !== 'variable' || node.procedure.value !== 'exists') return undefined;
  const [arg, ...more] = node.arguments ?? [];
  return arg !== undefined && more.length === 0 ? stepsRead(arg, nameOf) : undefined;
}

/** The steps a condition proves to have an output when it is true. */
function guardsOf(node: AstNode | undefined, nameOf: (n: string) => string): string[] {
  if (node === undefined) return [];
  const call = existsCall(node, nameOf);
  if (call) return [call.step];
  if (node.type === 'binary' && node.value === 'and') return [...guardsOf(lhsOf(node), nameOf), ...guardsOf(node.rhs, nameOf)];
  if (node.type === 'block' && node.expressions?.length === 1) return guardsOf(node.expressions[0], nameOf);
  return [];
}

const lhsOf = (node: AstNode): AstNode | undefined => (isAstNode(node.lhs) ? node.lhs : undefined);

function walkGuards(ast: AstNode, nameOf: (n: string) => string): Set<number> {
  const out = new Set<number>();
  // Iterative walk, as in references.ts: user expressions may nest deeply.
  const stack: { node: AstNode; guarded: ReadonlySet<string> }[] = [{ node: ast, guarded: new Set() }];
  const push = (node: AstNode | undefined, guarded: ReadonlySet<string>): void => {
    if (node !== undefined) stack.push({ node, guarded });
  };
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, guarded } = top;
    const call = existsCall(node, nameOf);
    const read = call ?? stepsRead(node, nameOf);
    if (read && (call !== undefined || guarded.has(read.step)) && read.root.position !== undefined) out.add(read.root.position);
    if (node.type === 'condition') {
      push(node.condition, guarded);
      push(node.then, new Set([...guarded, ...guardsOf(node.condition, nameOf)]));
      push(node.else, guarded);
      continue;
    }
    if (node.type === 'binary' && node.value === 'and') {
      push(lhsOf(node), guarded);
      push(node.rhs, new Set([...guarded, ...guardsOf(lhsOf(node), nameOf)]));
      continue;
    }
    forEachChild(node, (c) => push(c, guarded));
  }
  return out;
}
