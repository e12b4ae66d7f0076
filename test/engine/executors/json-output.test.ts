// What a command's stdout means as output, and what the author is told when it is not JSON.
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../../../engine/executors/json-output.ts';

const parse = (bytes: string | number[]) => parseJsonOutput(Buffer.from(bytes as string));

describe('parseJsonOutput', () => {
  it.each([
    ['an object with a newline', '{"a":[1,2]}\n', { a: [1, 2] }],
    ['empty output', '', null],
    ['blank output', ' \n\n', null],
    ['a UTF-8 byte order mark', '\uFEFF{"a":1}', { a: 1 }],
    ['a bare string', '"done"', 'done'],
  ])('accepts %s', (_name, text, value) => {
    expect(parse(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['two values', '{"a":1}\n{"b":2}\n', /after the end of the JSON value at byte 8 \(line 2, column 1\)/],
    ['a log line first', 'starting…\n{"a":1}', /unexpected 's'.* at byte 0 \(line 1, column 1\)/],
    ['a multi-byte character before the error', '{"é": tru}', /at byte 7 \(line 1, column 7\)/],
    ['an unclosed object', '{"a": 1', /at byte 7/],
    ['bytes that are not UTF-8', [0x7b, 0xff, 0x7d], /not valid UTF-8: byte 1 is 0xff/],
  ])('explains %s', (_name, bytes, message) => {
    const result = parse(bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});
