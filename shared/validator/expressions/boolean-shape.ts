// Decides, from the AST alone, whether a condition can only ever give a boolean. `unknown`
// means "cannot tell statically" (a path whose type is not declared); only a definite
// `non-boolean` becomes a diagnostic.
import { ACTIVATION_VARIABLE } from './activation.ts';
import type { AstNode } from './jsonata-ast.ts';

export type Shape = 'boolean' | 'non-boolean' | 'unknown';

const BOOLEAN_OPS = new Set(['=', '!=', '<', '<=', '>', '>=', 'in', 'and', 'or']);
const VALUE_OPS = new Set(['+', '-', '*', '/', '%', '&', '..']);
const BOOLEAN_FUNCTIONS = new Set(['not', 'exists', 'boolean', 'contains']);
const VALUE_FUNCTIONS = new Set([
  'string', 'number', 'sum', 'count', 'max', 'min', 'average', 'length', 'substring', 'substringBefore',
  'substringAfter', 'uppercase', 'lowercase', 'trim', 'pad', 'join', 'split', 'replace', 'keys', 'lookup',
  'append', 'reverse', 'sort', 'distinct', 'map', 'filter', 'reduce', 'zip', 'merge', 'each', 'spread',
  'now', 'millis', 'fromMillis', 'toMillis', 'formatNumber', 'formatBase', 'round', 'floor', 'ceil', 'abs',
  'power', 'sqrt', 'random', 'base64encode', 'base64decode', 'encodeUrl', 'decodeUrl', 'type', 'uuid',
]);

/**
 * @param typeOfPath resolves a path node to its declared JSON type, where a schema says it.
 */
export function shapeOf(node: AstNode, typeOfPath: (path: AstNode) => string | undefined): Shape {
  switch (node.type) {
    case 'value':
      return typeof node.value === 'boolean' ? 'boolean' : 'non-boolean';
    case 'string':
    case 'number':
    case 'regex':
      return 'non-boolean';
    case 'binary': {
      const op = String(node.value);
      if (BOOLEAN_OPS.has(op)) return 'boolean';
      if (VALUE_OPS.has(op)) return 'non-boolean';
      return 'unknown';
    }
    case 'unary':
      return node.value === '-' || node.value === '[' || node.value === '{' ? 'non-boolean' : 'unknown';
    case 'function': {
      const name = node.procedure?.type === 'variable' ? String(node.procedure.value) : '';
      if (BOOLEAN_FUNCTIONS.has(name)) return 'boolean';
      if (VALUE_FUNCTIONS.has(name)) return 'non-boolean';
      return 'unknown';
    }
    case 'variable':
      // $activation is a count; other variables are bound by the expression itself.
      return node.value === ACTIVATION_VARIABLE ? 'non-boolean' : 'unknown';
    case 'condition': {
      const a = node.then ? shapeOf(node.then, typeOfPath) : 'unknown';
      const b = node.else ? shapeOf(node.else, typeOfPath) : 'unknown';
      if (a === b) return a;
      return 'unknown';
    }
    case 'block': {
      const last = node.expressions?.[node.expressions.length - 1];
      return last ? shapeOf(last, typeOfPath) : 'unknown';
    }
    case 'path': {
      const t = typeOfPath(node);
      if (t === undefined) return 'unknown';
      return t === 'boolean' ? 'boolean' : 'non-boolean';
    }
    default:
      return 'unknown';
  }
}
