// The subset of JSONata's parsed AST the validator reads. jsonata ships no AST types, so this
// file states the shape once and everything else narrows through it.

export interface AstNode {
  type: string;
  value?: unknown;
  position?: number;
  steps?: AstNode[];
  stages?: AstNode[];
  predicate?: AstNode[];
  expr?: AstNode;
  lhs?: AstNode | AstNode[][] | AstNode[];
  rhs?: AstNode;
  arguments?: AstNode[];
  procedure?: AstNode;
  condition?: AstNode;
  then?: AstNode;
  else?: AstNode;
  expressions?: AstNode[];
  body?: AstNode;
  group?: { lhs: AstNode[][] };
  terms?: { expression: AstNode }[];
  pattern?: AstNode;
  update?: AstNode;
  delete?: AstNode;
}

export const isAstNode = (v: unknown): v is AstNode =>
  typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

const CHILD_KEYS = [
  'steps', 'stages', 'predicate', 'expr', 'lhs', 'rhs', 'arguments', 'procedure', 'condition', 'then', 'else',
  'expressions', 'body', 'pattern', 'update', 'delete',
] as const;

/** Calls `visit` for every direct child node (no arrays or closures are built: this runs per node). */
export function forEachChild(node: AstNode, visit: (child: AstNode) => void): void {
  for (const k of CHILD_KEYS) {
    const v = node[k];
    if (v !== undefined) visitValue(v, visit);
  }
  if (node.group) visitValue(node.group.lhs, visit);
  if (node.terms) for (const t of node.terms) visitValue(t.expression, visit);
}

function visitValue(v: unknown, visit: (child: AstNode) => void): void {
  if (Array.isArray(v)) for (const x of v) visitValue(x, visit);
  else if (isAstNode(v)) visit(v);
}
