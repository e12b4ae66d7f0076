// The lessons file's schema as a table of valid and invalid files, each refusal with its place
// (JSON path, or line and column for bad JSON) and the fix; and where a workflow's file is.
import { describe, expect, it } from 'vitest';
import { lessonsFileOf, lessonsOfStep, type Lesson } from '../../shared/lessons/lessons-schema.ts';
import { lessonsProblem, parseLessonsText } from '../../shared/lessons/parse-lessons.ts';

const lesson: Lesson = { id: 'L1', failureMode: 'a stale read', changed: 'verify reads again', runId: 'r1', steps: ['write'], by: 'ana', at: '2026-12-03T10:00:00.000Z' };
const file = (lessons: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ format: 'weft-lessons/v1', workflow: 'quote', lessons, ...extra });

describe('parseLessonsText', () => {
  it('reads a valid file', () => {
    const r = parseLessonsText(file([lesson, { ...lesson, id: 'L2', steps: ['write', 'verify'] }]));
    expect(r.ok && r.file.lessons.map((l) => l.id)).toEqual(['L1', 'L2']);
    expect(parseLessonsText(file([])).ok).toBe(true);
  });

  it.each([
    ['another format', file([], { format: 'weft-lessons/v2' }), '$.format: give "format": "weft-lessons/v1"'],
    ['no steps', file([{ ...lesson, steps: [] }]), '$.lessons[0].steps: name at least one step the lesson concerns'],
    ['a blank failure mode', file([{ ...lesson, failureMode: '  ' }]), '$.lessons[0].failureMode: must not be empty or only spaces'],
    ['a bad id', file([{ ...lesson, id: '7' }]), '$.lessons[0].id: a lesson id is L and a number'],
    ['a bad time', file([{ ...lesson, at: 'yesterday' }]), '$.lessons[0].at: give the time as an ISO date-time'],
    ['an unknown field', file([{ ...lesson, note: 'x' }]), '$.lessons[0]'],
    ['a step id that is not one', file([{ ...lesson, steps: ['9lives'] }]), '$.lessons[0].steps[0]: a step id is a name'],
  ])('refuses %s, naming the place', (_what, text, expected) => {
    const r = parseLessonsText(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(lessonsProblem('quote.lessons.json', r.diagnostics)).toContain(`quote.lessons.json: ${expected}`);
  });

  it('places a JSON syntax error by line and column, once, with the fix', () => {
    const r = parseLessonsText('{\n  "format": "weft-lessons/v1",\n  "lessons": [\n}\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(lessonsProblem('quote.lessons.json', r.diagnostics)).toMatch(/^quote\.lessons\.json: not valid JSON at line 4, column 1: [^]*; fix the JSON syntax there/);
  });
});

describe('lessons of a workflow', () => {
  it('sit beside the workflow file', () => {
    expect(lessonsFileOf('quote.weft.json')).toBe('quote.lessons.json');
    expect(lessonsFileOf('billing/refund.weft.json')).toBe('billing/refund.lessons.json');
  });

  it('are found by the steps they concern', () => {
    const two = { ...lesson, id: 'L2', steps: ['verify', 'write'] };
    expect(lessonsOfStep([lesson, two], 'verify').map((l) => l.id)).toEqual(['L2']);
    expect(lessonsOfStep([lesson, two], 'write').map((l) => l.id)).toEqual(['L1', 'L2']);
  });
});
