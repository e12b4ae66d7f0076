// Parses JSONata once per distinct text, and once per distinct *shape* (see expression-shape.ts):
// a shape's AST is shared, never cloned, and readers map names and positions back through it.
// The editor re-validates on every change and workflows repeat expressions, so both caches pay.
import jsonata from 'jsonata';
import { isAstNode, type AstNode } from './jsonata-ast.ts';
import { shapeOf, type Shape } from './expression-shape.ts';

/**
 * A parsed expression. `ast` may be the AST of the expression's *shape*: its names are n0, n1, …
 * and its positions canonical; `shape` maps them back (see references.ts, which does).
 */
export type ParsedExpression =
  | { ok: true; ast: AstNode; shape: Shape | undefined }
  | { ok: false; message: string; position: number | undefined };

/** Entries kept per cache before it starts afresh (bounds memory in a long editor session). */
const CAPACITY = 50_000;

export class ExpressionCache {
  private readonly byText = new Map<string, ParsedExpression>();
  private readonly byShape = new Map<string, ParsedExpression>();

  parse(text: string): ParsedExpression {
    let hit = this.byText.get(text);
    if (hit === undefined) {
      hit = this.parseShaped(text);
      if (this.byText.size >= CAPACITY) this.byText.clear();
      this.byText.set(text, hit);
    }
    return hit;
  }

  private parseShaped(text: string): ParsedExpression {
    const shape = shapeOf(text);
    if (shape === undefined) return parseOnce(text);
    let canonical = this.byShape.get(shape.key);
    if (canonical === undefined) {
      canonical = parseOnce(shape.key);
      if (this.byShape.size >= CAPACITY) this.byShape.clear();
      this.byShape.set(shape.key, canonical);
    }
    // Errors are rare: parse the real text so the message and position are exactly JSONata's.
    return canonical.ok ? { ok: true, ast: canonical.ast, shape } : parseOnce(text);
  }
}

function parseOnce(text: string): ParsedExpression {
  try {
    const ast: unknown = jsonata(text).ast();
    if (!isAstNode(ast)) return { ok: false, message: 'the expression is empty', position: 0 };
    return { ok: true, ast, shape: undefined };
  } catch (e) {
    if (e instanceof RangeError) {
      return { ok: false, message: 'the expression nests too deeply to parse', position: undefined };
    }
    const err = e as { message?: unknown; position?: unknown };
    const message = typeof err.message === 'string' ? err.message : String(e);
    const position = typeof err.position === 'number' ? err.position : undefined;
    return { ok: false, message, position };
  }
}
