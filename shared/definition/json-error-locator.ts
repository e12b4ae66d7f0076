// JSON.parse says *that* a text is not JSON but, on Node 20, not always *where*. This scanner
// finds the first syntax error's offset. It is iterative so deeply nested input cannot overflow
// the stack, and it runs only after JSON.parse has failed.

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);

export function locateJsonError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const n = text.length;
  // Each frame says what the scanner expects next inside an open container.
  type Frame = 'array-first' | 'array-next' | 'object-first' | 'object-next' | 'object-colon';
  const stack: Frame[] = [];
  const skipWs = () => {
    while (i < n && WS.has(text[i] ?? '')) i++;
  };
  const fail = (message: string): JsonSyntaxError => ({ offset: i, message });
  const describe = () => (i >= n ? 'end of file' : `'${text[i]}'`);

  const scanString = (): JsonSyntaxError | undefined => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('bad \\u escape in a string');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail('bad escape in a string');
        continue;
      }
      if (c < 0x20) return fail('a control character (such as a line break) inside a string; escape it');
      i++;
    }
    return fail('a string that is never closed');
  };

  const scanScalar = (): JsonSyntaxError | undefined => {
    const rest = text.slice(i, i + 5);
    for (const word of ['true', 'false', 'null']) {
      if (rest.startsWith(word)) {
        i += word.length;
        return undefined;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0 && m[0] !== '-') {
      i += m[0].length;
      return undefined;
    }
    return fail(`unexpected ${describe()}: expected a value (object, array, string, number, true, false or null)`);
  };

  // Scans one value; containers push a frame and are finished by the loop below.
  const scanValue = (): JsonSyntaxError | undefined => {
    skipWs();
    const c = text[i];
    if (c === '{') {
      i++;
      stack.push('object-first');
      return undefined;
    }
    if (c === '[') {
      i++;
      stack.push('array-first');
      return undefined;
    }
    if (c === '"') return scanString();
    return scanScalar();
  };

  let err = scanValue();
  if (err) return err;
  while (stack.length > 0) {
    skipWs();
    const top = stack[stack.length - 1];
    const c = text[i];
    if (top === 'array-first' || top === 'array-next') {
      if (c === ']') {
        i++;
        stack.pop();
        continue;
      }
      if (top === 'array-next') {
        if (c !== ',') return fail(`unexpected ${describe()}: expected ',' or ']' in an array`);
        i++;
        skipWs();
        if (text[i] === ']') return fail("a trailing comma before ']' is not allowed in JSON");
      }
      stack[stack.length - 1] = 'array-next';
      err = scanValue();
      if (err) return err;
      continue;
    }
    if (top === 'object-colon') {
      if (c !== ':') return fail(`unexpected ${describe()}: expected ':' after a property name`);
      i++;
      stack[stack.length - 1] = 'object-next';
      err = scanValue();
      if (err) return err;
      continue;
    }
    // object-first or object-next
    if (c === '}') {
      i++;
      stack.pop();
      continue;
    }
    if (top === 'object-next') {
      if (c !== ',') return fail(`unexpected ${describe()}: expected ',' or '}' in an object`);
      i++;
      skipWs();
      if (text[i] === '}') return fail("a trailing comma before '}' is not allowed in JSON");
    }
    if (text[i] !== '"') return fail(`unexpected ${describe()}: expected a property name in double quotes`);
    err = scanString();
    if (err) return err;
    stack[stack.length - 1] = 'object-colon';
  }
  skipWs();
  if (i < n) return fail(`unexpected ${describe()} after the end of the JSON value`);
  return undefined;
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      last = k;
    }
  }
  return { line, column: offset - last };
}
