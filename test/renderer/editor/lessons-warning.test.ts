// What the editor asks before a save: the steps a save changes or removes, and the lessons that
// concern them, each readable, "2 lessons concern this step".
import { describe, expect, it } from 'vitest';
import { changedSteps, lessonsWarning } from '../../../renderer/core/workflow-lessons.ts';
import type { Workflow } from '../../../shared/definition/workflow-schema.ts';
import type { Lesson } from '../../../shared/lessons/lessons-schema.ts';

const doc: Workflow = {
  format: 'weft/v1', id: 'quote', version: 1, name: 'Quote',
  steps: [{ id: 'price', kind: 'transform', config: { expression: '1' } }, { id: 'send', kind: 'transform', config: { expression: '2' } }, { id: 'done', kind: 'end' }],
  edges: [],
} as Workflow;
const l = (id: string, steps: string[]): Lesson => ({ id, failureMode: `mode ${id}`, changed: `changed ${id}`, runId: 'r1', steps, by: 'ana', at: '2026-12-03T10:00:00.000Z' });

describe('changedSteps', () => {
  it('names the steps a save changes or removes, not the new or untouched ones', () => {
    const next = { ...doc, steps: [{ ...doc.steps[0], name: 'Price' }, doc.steps[2], { id: 'extra', kind: 'end' }] } as Workflow;
    expect(changedSteps(doc, next)).toEqual(['price', 'send']);
    expect(changedSteps(doc, doc)).toEqual([]);
    expect(changedSteps(null, doc)).toEqual([]);
  });
});

describe('lessonsWarning', () => {
  const byStep = { price: [l('L1', ['price']), l('L2', ['price', 'send'])], send: [l('L2', ['price', 'send'])] };
  it('counts each lesson once and writes each out', () => {
    const one = lessonsWarning(['price'], byStep);
    expect(one?.title).toBe('2 lessons concern this step');
    expect(one?.body).toContain('This save changes "price".');
    expect(one?.body).toContain('L1 (price): mode L1\n   changed: changed L1');
    expect(lessonsWarning(['price', 'send'], byStep)?.title).toBe('2 lessons concern these steps');
    expect(lessonsWarning(['send'], byStep)?.title).toBe('1 lesson concerns this step');
  });
  it('asks nothing when no lesson concerns the change', () => {
    expect(lessonsWarning(['done'], byStep)).toBeNull();
    expect(lessonsWarning([], byStep)).toBeNull();
  });
});
