// Follows field names through a JSON Schema, the way a JSONata path walks data: through
// `properties`, into `items` of arrays (JSONata maps over arrays), into `additionalProperties`.
// Anything it cannot follow for sure ($ref, anyOf, no properties) ends the walk as `open`.

export type SchemaWalk =
  | { status: 'declared'; schema: Record<string, unknown> }
  | { status: 'open' }
  | { status: 'undeclared'; index: number; known: string[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function walkSchema(schema: unknown, names: readonly string[]): SchemaWalk {
  let cur: unknown = schema;
  for (let i = 0; i < names.length; i++) {
    if (!isObj(cur)) return { status: 'open' };
    cur = unwrapArrays(cur);
    if (!isObj(cur)) return { status: 'open' };
    const name = names[i] as string;
    const props = cur['properties'];
    if (isObj(props) && Object.hasOwn(props, name)) {
      cur = props[name];
      continue;
    }
    if (isObj(cur['additionalProperties'])) {
      cur = cur['additionalProperties'];
      continue;
    }
    const closedShape = isObj(props) && cur['patternProperties'] === undefined && !hasCombinators(cur);
    if (closedShape && cur['additionalProperties'] !== true) {
      return { status: 'undeclared', index: i, known: Object.keys(props) };
    }
    return { status: 'open' };
  }
  return isObj(cur) ? { status: 'declared', schema: cur } : { status: 'open' };
}

/** The JSON type a schema declares, if it declares exactly one. */
export function declaredType(schema: Obj): string | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return t;
  if (isObj(schema['const'])) return 'object';
  if (typeof schema['const'] === 'boolean') return 'boolean';
  return undefined;
}

function unwrapArrays(schema: Obj): unknown {
  let cur: unknown = schema;
  for (let guard = 0; guard < 16 && isObj(cur); guard++) {
    const isArray = cur['type'] === 'array' || (cur['properties'] === undefined && isObj(cur['items']));
    if (!isArray || !isObj(cur['items'])) break;
    cur = cur['items'];
  }
  return cur;
}

function hasCombinators(s: Obj): boolean {
  return ['$ref', 'anyOf', 'oneOf', 'allOf', 'if', '$dynamicRef'].some((k) => s[k] !== undefined);
}
