// `$activation`: the number of the activation of the step that evaluates an expression (1 on its
// first start; a loop edge, an operator's retry or a revision starts a new one). It is a JSONata
// variable the engine binds per step, so the validator and the engine find it the same way.
import { forEachChild, type AstNode } from './jsonata-ast.ts';
import { realPosition, type Shape } from './expression-shape.ts';

/** The variable's name, without JSONata's `$`. */
export const ACTIVATION_VARIABLE = 'activation';

/**
 * Positions of every `$activation` read in an expression (empty when it reads none).
 *
 * @example
 * activationReads(jsonata('$activation > 1').ast()); // [11]
 */
export function activationReads(ast: AstNode, shape?: Shape): number[] {
  return variableReads(ast, ACTIVATION_VARIABLE, shape);
}

/**
 * Positions of every read of the variable `$name` in an expression (empty when it reads none):
 * the variables the engine binds for some expressions (`$activation`, a revalidate check's `$fetched`).
 *
 * @example
 * variableReads(jsonata('$fetched.body.price < 10').ast(), 'fetched'); // [8]
 */
export function variableReads(ast: AstNode, name: string, shape?: Shape): number[] {
  const out: number[] = [];
  const stack: AstNode[] = [ast];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'variable' && node.value === name) out.push(realPosition(shape, node.position) ?? 0);
    forEachChild(node, (c) => stack.push(c));
  }
  return out;
}
