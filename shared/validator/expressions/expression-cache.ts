// Parses JSONata once per distinct text. Generated and real workflows repeat expressions a lot,
// and the editor re-validates on every change, so the cache pays for itself.
import jsonata from 'jsonata';
import { isAstNode, type AstNode } from './jsonata-ast.ts';

export type ParsedExpression =
  | { ok: true; ast: AstNode }
  | { ok: false; message: string; position: number | undefined };

export class ExpressionCache {
  private readonly parsed = new Map<string, ParsedExpression>();

  parse(text: string): ParsedExpression {
    let hit = this.parsed.get(text);
    if (hit === undefined) {
      hit = parseOnce(text);
      this.parsed.set(text, hit);
    }
    return hit;
  }
}

function parseOnce(text: string): ParsedExpression {
  try {
    const ast: unknown = jsonata(text).ast();
    if (!isAstNode(ast)) return { ok: false, message: 'the expression is empty', position: 0 };
    return { ok: true, ast };
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
