// Finds what an expression reads from the evaluation context {input, steps, run, output}:
// `steps.review.output.reason` → {root: 'steps', names: ['review', 'output', 'reason']}.
// Only paths evaluated against the root context count; names inside filters and later path
// steps are relative to other data. `$$.steps...` is always rooted.
import { forEachChild, type AstNode } from './jsonata-ast.ts';
import { realName, realPosition, type Shape } from './expression-shape.ts';

export const CONTEXT_ROOTS = ['input', 'steps', 'run', 'output'] as const;
export type ContextRoot = (typeof CONTEXT_ROOTS)[number];

export interface Reference {
  root: ContextRoot;
  /** The plain field names read after the root, up to the first filter or computed step. */
  names: string[];
  /** JSONata's position of the root token (end offset of the token). */
  position: number | undefined;
}

const isRoot = (v: unknown): v is ContextRoot => (CONTEXT_ROOTS as readonly unknown[]).includes(v);

const canonicalCache = new WeakMap<AstNode, Reference[]>();

/**
 * The references of a parsed expression, in real names and positions. The walk runs once per
 * distinct AST (shapes share one) and is then only renamed.
 */
export function referencesOf(ast: AstNode, shape?: Shape): Reference[] {
  let canonical = canonicalCache.get(ast);
  if (canonical === undefined) {
    canonical = walkReferences(ast);
    canonicalCache.set(ast, canonical);
  }
  if (shape === undefined) return canonical;
  return canonical.map((r) => ({
    root: r.root,
    names: r.names.map((n) => realName(shape, n)),
    position: realPosition(shape, r.position),
  }));
}

function walkReferences(ast: AstNode): Reference[] {
  const out: Reference[] = [];
  // Iterative walk: user expressions may nest deeply and must not overflow the stack.
  const stack: { node: AstNode; atRoot: boolean }[] = [{ node: ast, atRoot: true }];
  while (stack.length > 0) {
    const { node, atRoot } = stack.pop() as { node: AstNode; atRoot: boolean };
    if (node.type === 'path' && node.steps && node.steps.length > 0) {
      const steps = node.steps;
      let start = 0;
      let rooted = atRoot;
      const first = steps[0] as AstNode;
      if (first.type === 'variable' && first.value === '$' && steps.length > 1) {
        rooted = true; // $$ is the root context
        start = 1;
      }
      const head = steps[start] as AstNode;
      if (rooted && head.type === 'name' && isRoot(head.value)) {
        const names: string[] = [];
        let k = start + 1;
        let stoppedAt = head;
        for (; k < steps.length; k++) {
          const s = steps[k] as AstNode;
          if (s.type !== 'name' || typeof s.value !== 'string' || stoppedAt.stages || stoppedAt.predicate) break;
          names.push(s.value);
          stoppedAt = s;
        }
        out.push({ root: head.value, names, position: head.position });
      } else if (head.type !== 'name') {
        stack.push({ node: head, atRoot });
      }
      steps.forEach((s, k) => {
        if (k === start && head.type !== 'name') return;
        forEachChild(s, (c) => stack.push({ node: c, atRoot: false }));
      });
      continue;
    }
    if (node.type === 'name' && atRoot && isRoot(node.value)) {
      out.push({ root: node.value, names: [], position: node.position });
    }
    forEachChild(node, (c) => stack.push({ node: c, atRoot }));
  }
  return out;
}
