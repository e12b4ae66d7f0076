// Finds where a JSON pointer (as ajv reports it) sits in the JSON text, so a schema problem is
// underlined at the keyword or value at fault rather than at the start of the field.
import { jsonLanguage } from '@codemirror/lang-json';

// Lezer's types, named through lang-json so no undeclared package is imported.
type Tree = ReturnType<typeof jsonLanguage.parser.parse>;
type SyntaxNode = Tree['topNode'];

export function parseJsonTree(text: string): Tree {
  return jsonLanguage.parser.parse(text);
}

/** The first place the JSON grammar could not parse, or undefined when it parsed cleanly. */
export function firstSyntaxErrorAt(tree: Tree): number | undefined {
  let at: number | undefined;
  tree.iterate({
    enter: (n) => {
      if (at !== undefined) return false;
      if (n.type.isError) at = n.from;
      return undefined;
    },
  });
  return at;
}

const unescapeSegment = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

const valueOf = (n: SyntaxNode | null): SyntaxNode | null => {
  // A Property's value is its last child that is neither its name nor the colon.
  let c = n?.lastChild ?? null;
  while (c !== null && (c.name === 'PropertyName' || c.name === ':' || c.type.isError)) c = c.prevSibling;
  return c;
};

function childAt(node: SyntaxNode, segment: string, text: string): { value: SyntaxNode; name: SyntaxNode | null } | undefined {
  if (node.name === 'Object') {
    for (let p = node.firstChild; p !== null; p = p.nextSibling) {
      if (p.name !== 'Property') continue;
      const name = p.getChild('PropertyName');
      if (name === null || jsonString(text.slice(name.from, name.to)) !== segment) continue;
      const value = valueOf(p);
      return value === null ? undefined : { value, name };
    }
    return undefined;
  }
  if (node.name === 'Array' && /^\d+$/.test(segment)) {
    let i = Number(segment);
    for (let c = node.firstChild; c !== null; c = c.nextSibling) {
      if (c.name === '[' || c.name === ']' || c.name === ',' || c.type.isError) continue;
      if (i-- === 0) return { value: c, name: null };
    }
  }
  return undefined;
}

function jsonString(raw: string): string | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text range of the value at `pointer` ('' is the whole document, `/properties/a/type` the
 * value of that key), or undefined when the text has no such place.
 */
export function pointerRange(text: string, pointer: string, tree: Tree = parseJsonTree(text)): { from: number; to: number } | undefined {
  let node: SyntaxNode | null = tree.topNode.firstChild;
  while (node !== null && node.type.isError) node = node.nextSibling;
  if (node === null) return undefined;
  if (pointer === '') return { from: node.from, to: node.to };
  for (const raw of pointer.split('/').slice(1)) {
    const next = childAt(node, unescapeSegment(raw), text);
    if (next === undefined) return undefined;
    node = next.value;
  }
  return { from: node.from, to: node.to };
}

/** The first property *name* `key` anywhere in the document (for "unknown keyword" problems, which ajv reports without a path). */
export function propertyNameRange(text: string, key: string, tree: Tree = parseJsonTree(text)): { from: number; to: number } | undefined {
  let found: { from: number; to: number } | undefined;
  tree.iterate({
    enter: (n) => {
      if (found !== undefined) return false;
      if (n.name === 'PropertyName' && jsonString(text.slice(n.from, n.to)) === key) found = { from: n.from, to: n.to };
      return undefined;
    },
  });
  return found;
}
