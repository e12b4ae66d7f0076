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

/** Every direct child node, in no particular order. */
export function childrenOf(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  const add = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) add(x);
    else if (isAstNode(v)) out.push(v);
  };
  add(node.steps);
  add(node.stages);
  add(node.predicate);
  add(node.expr);
  add(node.lhs);
  add(node.rhs);
  add(node.arguments);
  add(node.procedure);
  add(node.condition);
  add(node.then);
  add(node.else);
  add(node.expressions);
  add(node.body);
  add(node.group?.lhs);
  add(node.terms?.map((t) => t.expression));
  add(node.pattern);
  add(node.update);
  add(node.delete);
  return out;
}
