// What counts as a JSON reply from a model, and what the message says when it is not.
import { describe, expect, it } from 'vitest';
import { parseModelJson } from '../../../../engine/executors/agent/model-json.ts';
import { retryAfterMs } from '../../../../engine/executors/retry-after.ts';

describe('parseModelJson', () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    ['  \n[1, 2]\n', [1, 2]],
    ['"just a string"', 'just a string'],
    ['```json\n{"a": 1}\n```', { a: 1 }],
    ['```\n{"a": 1}\n```', { a: 1 }],
    ['Here is the answer:\n\n```json\n{"a": {"b": [true]}}\n```\nHope that helps!', { a: { b: [true] } }],
    ['\uFEFF{"bom": true}', { bom: true }],
  ])('accepts %j', (text, value) => {
    expect(parseModelJson(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'the reply is empty'],
    ['Sure! Here is my answer...', "unexpected 'S'"],
    ['{"a": 1,}', 'trailing comma'],
    ['```json\n{"a": }\n```', 'its fenced code block is not JSON'],
    ['{"a": 1} and more', 'after the end of the JSON value'],
  ])('rejects %j, saying %j', (text, message) => {
    const parsed = parseModelJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '250', 'retry-after': '1' }, 250],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, 10_000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('reads %j as %j', (headers, expected) => {
    expect(retryAfterMs((name) => new Headers(headers).get(name), now)).toBe(expected);
  });
});
