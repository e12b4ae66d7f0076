// JSONata's built-in functions, for completion after `$`: the signature is the detail, the
// summary the info. Kept as data so completion and docs read one list.

export interface BuiltinFunction {
  name: string;
  /** Parameters as written in the JSONata docs; `?` marks an optional one. */
  params: string;
  summary: string;
}

const fn = (name: string, params: string, summary: string): BuiltinFunction => ({ name, params, summary });

export const JSONATA_FUNCTIONS: readonly BuiltinFunction[] = [
  fn('exists', 'arg', 'true if arg has a value (a missing field gives false)'),
  fn('string', 'arg, prettify?', 'arg as a string; objects and arrays as JSON'),
  fn('number', 'arg', 'arg as a number'),
  fn('boolean', 'arg', 'arg as a boolean, by JSONata truthiness'),
  fn('not', 'arg', 'the negated truthiness of arg'),
  fn('count', 'array', 'number of items'),
  fn('sum', 'array', 'sum of the numbers'),
  fn('max', 'array', 'largest number'),
  fn('min', 'array', 'smallest number'),
  fn('average', 'array', 'mean of the numbers'),
  fn('map', 'array, function', 'applies function to every item'),
  fn('filter', 'array, function', 'items for which function is true'),
  fn('single', 'array, function?', 'the one item matching function; an error otherwise'),
  fn('reduce', 'array, function, init?', 'folds the array with function(acc, item)'),
  fn('sort', 'array, function?', 'sorted copy; function(a, b) is true when a goes after b'),
  fn('reverse', 'array', 'reversed copy'),
  fn('shuffle', 'array', 'items in random order'),
  fn('distinct', 'array', 'items without duplicates'),
  fn('append', 'array1, array2', 'array1 followed by array2'),
  fn('zip', 'array1, array2, ...', 'arrays of the i-th items'),
  fn('keys', 'object', 'the keys of object'),
  fn('lookup', 'object, key', 'the value at key'),
  fn('spread', 'object', 'one single-key object per key'),
  fn('merge', 'array', 'one object with the keys of all objects in array'),
  fn('sift', 'object, function', 'the entries for which function(value, key) is true'),
  fn('each', 'object, function', 'function(value, key) for every entry'),
  fn('type', 'value', "the JSON type: 'string', 'number', 'object', ..."),
  fn('length', 'str', 'number of characters'),
  fn('substring', 'str, start, length?', 'part of str from start'),
  fn('substringBefore', 'str, chars', 'str up to the first chars'),
  fn('substringAfter', 'str, chars', 'str after the first chars'),
  fn('uppercase', 'str', 'str in upper case'),
  fn('lowercase', 'str', 'str in lower case'),
  fn('trim', 'str', 'str without leading, trailing and repeated whitespace'),
  fn('pad', 'str, width, char?', 'str padded to width (negative pads on the left)'),
  fn('contains', 'str, pattern', 'true if str contains pattern (a string or regex)'),
  fn('split', 'str, separator, limit?', 'str split into an array'),
  fn('join', 'array, separator?', 'strings joined into one'),
  fn('match', 'str, pattern, limit?', 'regex matches with groups'),
  fn('replace', 'str, pattern, replacement, limit?', 'str with pattern replaced'),
  fn('eval', 'expr, context?', 'evaluates a JSONata expression given as text'),
  fn('base64encode', 'str', 'str in base64'),
  fn('base64decode', 'str', 'base64 decoded'),
  fn('encodeUrlComponent', 'str', 'str encoded for a URL component'),
  fn('encodeUrl', 'str', 'str encoded as a URL'),
  fn('decodeUrlComponent', 'str', 'a URL component decoded'),
  fn('decodeUrl', 'str', 'a URL decoded'),
  fn('abs', 'number', 'absolute value'),
  fn('floor', 'number', 'rounded down'),
  fn('ceil', 'number', 'rounded up'),
  fn('round', 'number, precision?', 'rounded half to even'),
  fn('power', 'base, exponent', 'base to the power exponent'),
  fn('sqrt', 'number', 'square root'),
  fn('random', '', 'a number in [0, 1)'),
  fn('formatNumber', 'number, picture, options?', 'number as text by an XPath picture'),
  fn('formatBase', 'number, radix?', 'number as text in radix'),
  fn('formatInteger', 'number, picture', 'integer as text (words, roman, ...)'),
  fn('parseInteger', 'string, picture', 'integer parsed by a picture'),
  fn('now', 'picture?, timezone?', 'the current time as ISO 8601'),
  fn('millis', '', 'the current time in milliseconds since the epoch'),
  fn('fromMillis', 'number, picture?, timezone?', 'milliseconds as an ISO 8601 time'),
  fn('toMillis', 'timestamp, picture?', 'an ISO 8601 time in milliseconds'),
  fn('error', 'message?', 'stops evaluation with an error'),
  fn('assert', 'condition, message?', 'an error unless condition is true'),
];

/** Weft's `$activation`: the activation number of the step evaluating the expression. */
export const ACTIVATION = {
  name: 'activation',
  summary: 'the activation number of the step evaluating this (1 the first time; its pass number in a loop)',
} as const;
