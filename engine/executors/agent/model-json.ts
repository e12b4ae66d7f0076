// A model asked for JSON often wraps it in a Markdown code fence, sometimes after a sentence of
// prose. The reply counts as JSON when it is JSON, or when its first fenced block is; anything
// else is not, and the message says where parsing stopped so a prompt author can see why.
import { lineColumn, locateJsonError } from '../../../shared/definition/json-error-locator.ts';

export type ModelJson = { ok: true; value: unknown } | { ok: false; message: string };

const FENCE = /```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```/;

/**
 * @example
 * parseModelJson('Here it is:\n```json\n{"a": 1}\n```') // { ok: true, value: { a: 1 } }
 */
export function parseModelJson(text: string): ModelJson {
  const whole = text.replace(/^\uFEFF/, '').trim();
  if (whole === '') return { ok: false, message: 'the reply is empty' };
  const direct = tryParse(whole);
  if (direct.ok) return direct;
  const fenced = FENCE.exec(whole)?.[1];
  if (fenced === undefined) return direct;
  const inner = tryParse(fenced.trim());
  return inner.ok ? inner : { ok: false, message: `its fenced code block is not JSON: ${inner.message}` };
}

function tryParse(text: string): ModelJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const found = locateJsonError(text);
    if (found === undefined) return { ok: false, message: error instanceof Error ? error.message : String(error) };
    const { line, column } = lineColumn(text, found.offset);
    const near = text.slice(Math.max(0, found.offset - 20), found.offset + 20);
    return { ok: false, message: `${found.message} at line ${line}, column ${column}, near ${JSON.stringify(near)}` };
  }
}
