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
  const out: number[] = [];
  const stack: AstNode[] = [ast];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'variable' && node.value === ACTIVATION_VARIABLE) out.push(realPosition(shape, node.position) ?? 0);
    forEachChild(node, (c) => stack.push(c));
  }
  return out;
}
