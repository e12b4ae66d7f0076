// Draft ↔ value: what each field's typing becomes, the per-field messages of the subset the form
// checks, defaults and last inputs shown again, and the JSON-only fallbacks.
import { describe, expect, it } from 'vitest';
import { draftOf, fitsForm, isoToLocal, localToIso, readForm } from '../../../renderer/forms/form-draft.ts';
import { formSpec, type FormSpec } from '../../../renderer/forms/form-spec.ts';

function spec(schema: unknown): FormSpec {
  const s = formSpec(schema);
  if (s === null) throw new Error('no form');
  return s;
}

const review = spec({
  type: 'object',
  required: ['topic'],
  properties: {
    topic: { type: 'string', minLength: 3 },
    audience: { type: 'string' },
    maxWords: { type: 'integer', minimum: 100, maximum: 3000 },
  },
});

describe('readForm', () => {
  it('leaves out empty optional fields and turns number text into numbers', () => {
    expect(readForm(review, { topic: 'durable runs', audience: '', maxWords: ' 800 ' })).toEqual({ value: { topic: 'durable runs', maxWords: 800 }, errors: [] });
  });

  it.each([
    [{ topic: '', audience: '', maxWords: '' }, [{ path: '$.topic', message: 'required' }]],
    [{ topic: 'ab', audience: '', maxWords: '' }, [{ path: '$.topic', message: 'at least 3 characters' }]],
    [{ topic: 'abc', audience: '', maxWords: '12.5' }, [{ path: '$.maxWords', message: 'must be a whole number' }]],
    [{ topic: 'abc', audience: '', maxWords: '50' }, [{ path: '$.maxWords', message: 'at least 100' }]],
    [{ topic: 'abc', audience: '', maxWords: '5000' }, [{ path: '$.maxWords', message: 'at most 3000' }]],
    [{ topic: 'abc', audience: '', maxWords: 'many' }, [{ path: '$.maxWords', message: 'must be a number' }]],
  ])('%j has the errors %j', (draft, errors) => {
    expect(readForm(review, draft).errors).toEqual(errors);
  });

  it('checks formats, patterns and lengths of text', () => {
    const s = spec({
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        code: { type: 'string', pattern: '^[A-Z]{2}\\d+$', maxLength: 5 },
        weird: { type: 'string', pattern: '(?<=' },
      },
    });
    const { errors } = readForm(s, { mail: 'ana', site: 'example', day: '1/12/2026', code: 'ab123', weird: 'x' });
    expect(errors).toEqual([
      { path: '$.mail', message: 'an e-mail address such as ana@example.org' },
      { path: '$.site', message: 'an address such as https://example.org/page' },
      { path: '$.day', message: 'a date such as 2026-12-01' },
      { path: '$.code', message: 'must match ^[A-Z]{2}\\d+$' },
    ]);
    expect(readForm(s, { mail: 'ana@example.org', site: 'https://x.org', day: '2026-12-01', code: 'AB123456', weird: '' }).errors).toEqual([{ path: '$.code', message: 'at most 5 characters' }]);
  });

  it('reads enums, booleans, lists and nested objects', () => {
    const s = spec({
      type: 'object',
      properties: {
        level: { enum: ['low', 2, null] },
        urgent: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'integer' }, maxItems: 2 },
        address: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        extra: { type: 'array', items: { type: 'object' } },
      },
    });
    const read = readForm(s, { level: '2', urgent: true, tags: ['1', '', '2', 'x', '3'], address: { city: '', zip: '1000' }, extra: '[{"a": 1}' });
    expect(read.value).toEqual({ level: 2, urgent: true, tags: [1, 2, 3], address: { zip: '1000' } });
    expect(read.errors.map((e) => e.path)).toEqual(['$.tags[3]', '$.tags', '$.address.city', '$.extra']);
    expect(read.errors[0]?.message).toBe('must be a number');
    expect(read.errors[1]?.message).toBe('at most 2 items');
    expect(read.errors[3]?.message).toMatch(/^not valid JSON: /);
    expect(readForm(s, { level: 'null', urgent: false, tags: [], address: { city: '', zip: '' }, extra: '' })).toEqual({ value: { level: null, urgent: false }, errors: [] });
  });

  it('sends date-times as ISO text and shows them in local time', () => {
    const s = spec({ type: 'object', properties: { due: { type: 'string', format: 'date-time' } } });
    const iso = '2026-12-01T14:30:00.000Z';
    const draft = draftOf(s, { due: iso });
    expect(draft['due']).toBe(isoToLocal(iso));
    expect(readForm(s, draft).value).toEqual({ due: iso });
    expect(readForm(s, { due: 'tomorrow' }).errors).toEqual([{ path: '$.due', message: 'not a date and time' }]);
    expect(localToIso('2026-13-45T99:00')).toBeNull();
    expect(isoToLocal('not a time')).toBe('');
  });
});

describe('draftOf', () => {
  it('shows the last input again, else the schema defaults', () => {
    const s = spec({ type: 'object', properties: { n: { type: 'number', default: 3 }, on: { type: 'boolean', default: true }, pick: { enum: ['a', 'b'], default: 'b' }, tags: { type: 'array', items: { type: 'string' } } } });
    expect(draftOf(s, undefined)).toEqual({ n: '3', on: true, pick: '"b"', tags: [] });
    expect(draftOf(s, { n: 7, on: false, pick: 'a', tags: ['x', 'y'] })).toEqual({ n: '7', on: false, pick: '"a"', tags: ['x', 'y'] });
    expect(readForm(s, draftOf(s, { n: 7, on: false, pick: 'a', tags: ['x', 'y'] })).value).toEqual({ n: 7, on: false, pick: 'a', tags: ['x', 'y'] });
  });

  it('keeps a value of another shape out of the form', () => {
    expect(fitsForm(review, { topic: 'durable runs', maxWords: 800 })).toBe(true);
    expect(fitsForm(review, { topic: 'durable runs', extra: 1 })).toBe(false);
    expect(fitsForm(review, { topic: 42 })).toBe(false);
    expect(fitsForm(review, [1, 2])).toBe(false);
  });
});
