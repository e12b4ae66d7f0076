// The start form's Debug part as data: breakpoints toggled, pins parsed with a message that says
// where the JSON is wrong and how to fix it, and the start command's `debug` built only from a
// draft whose pins all parse.
import { describe, expect, it } from 'vitest';
import { debugCommand, EMPTY_DEBUG, parsePin, setPin, toggleBreakpoint } from '../../../renderer/runs/actions/debug-draft.ts';

describe('parsePin', () => {
  it.each([
    ['{"status": 200}', { status: 200 }],
    ['[1, "two", null, true]', [1, 'two', null, true]],
    ['"just text"', 'just text'],
    ['  0  ', 0],
  ])('takes %s', (text, value) => {
    expect(parsePin(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', /^empty: type the output as JSON/],
    ['   ', /^empty/],
    ['{status: 200}', /^not JSON: line 1, column 2: expected property name or '}'\. Quote keys/],
    ['{"a": 1,}', /^not JSON: line 1, column 9: /],
    ['{\n  "a": 1\n  "b": 2\n}', /^not JSON: line 3, column 3: expected ',' or '}' after property value/],
    ['{"a": 1', /^not JSON: /],
    ['abc', /^not JSON: unexpected token 'a'\. Quote keys/],
  ])('refuses %j, saying where and how to fix it', (text, message) => {
    const parsed = parsePin(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });
});

describe('debugCommand', () => {
  it('is undefined without breakpoints or pins: a normal run', () => {
    expect(debugCommand(EMPTY_DEBUG)).toEqual({ debug: undefined, problems: {} });
  });

  it('toggles breakpoints in the order they were picked', () => {
    let draft = toggleBreakpoint(EMPTY_DEBUG, 'b');
    draft = toggleBreakpoint(draft, 'a');
    draft = toggleBreakpoint(draft, 'c');
    draft = toggleBreakpoint(draft, 'a');
    expect(debugCommand(draft).debug).toEqual({ breakpoints: ['b', 'c'] });
  });

  it('parses each pin, and names the step whose pin is not JSON', () => {
    let draft = setPin(EMPTY_DEBUG, 'fetch', { text: '{"status": 200, "body": {}}', from: 'run r1, attempt 1.1' });
    draft = setPin(draft, 'score', { text: '{score: 1}', from: null });
    const { debug, problems } = debugCommand(draft);
    expect(debug).toEqual({ pins: { fetch: { status: 200, body: {} } } });
    expect(Object.keys(problems)).toEqual(['score']);
    expect(problems.score).toMatch(/^not JSON: line 1, column 2/);
    expect(debugCommand(setPin(draft, 'score', null))).toEqual({ debug: { pins: { fetch: { status: 200, body: {} } } }, problems: {} });
  });
});
