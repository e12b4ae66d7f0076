import { describe, expect, it } from 'vitest';
import { fieldPath, focusTarget, parseSite } from '../../../renderer/editor/inspector/focus-target.ts';
import { doc } from './fixture.ts';

describe('parseSite', () => {
  it.each([
    ['$', []],
    ['$.steps[2].config.url', ['steps', 2, 'config', 'url']],
    ['$.steps[0].config.headers["X-Api-Key"]', ['steps', 0, 'config', 'headers', 'X-Api-Key']],
    ['$.edges[1].on[0]', ['edges', 1, 'on', 0]],
    ['$.limits.concurrency["a.b"]', ['limits', 'concurrency', 'a.b']],
  ])('%s', (site, segments) => {
    expect(parseSite(site)).toEqual(segments);
  });

  it.each(['steps[0]', '$.', '$[x]', '$.steps[', '$..a'])('refuses %s', (site) => {
    expect(parseSite(site)).toBeNull();
  });
});

describe('fieldPath', () => {
  it('writes names with dots and indexes in brackets', () => {
    expect(fieldPath(['config', 'argv', 1])).toBe('config.argv[1]');
    expect(fieldPath([])).toBe('');
  });
});

describe('focusTarget', () => {
  it.each([
    ['$.steps[2].config.url', { element: { type: 'step', id: 'charge' }, section: 'config', fields: ['config.url', 'config'] }],
    ['$.steps[0].input', { element: { type: 'step', id: 'quote' }, section: 'data', fields: ['input'] }],
    ['$.steps[2].retry.maxAttempts', { element: { type: 'step', id: 'charge' }, section: 'reliability', fields: ['retry.maxAttempts', 'retry'] }],
    ['$.steps[1].revalidate.check', { element: { type: 'step', id: 'review' }, section: 'revalidation', fields: ['revalidate.check', 'revalidate'] }],
    ['$.steps[1].revalidate', { element: { type: 'step', id: 'review' }, section: 'revalidation', fields: ['revalidate'] }],
    ['$.steps[2].idempotencyKey', { element: { type: 'step', id: 'charge' }, section: 'effect', fields: ['idempotencyKey'] }],
    ['$.steps[2].compensation', { element: { type: 'step', id: 'charge' }, section: 'advanced', fields: ['compensation'] }],
    ['$.steps[1].id', { element: { type: 'step', id: 'review' }, section: 'basics', fields: ['id'] }],
    ['$.steps[5].config.branches[1]', { element: { type: 'step', id: 'both' }, section: 'config', fields: ['config.branches[1]', 'config.branches', 'config'] }],
    ['$.steps[0].output.properties.price', { element: { type: 'step', id: 'quote' }, section: 'data', fields: ['output.properties.price', 'output.properties', 'output'] }],
    ['$.steps[3]', { element: { type: 'step', id: 'refund' }, section: null, fields: [] }],
    ['$.edges[1].when', { element: { type: 'edge', id: 'e2' }, section: 'edge', fields: ['when'] }],
    ['$.edges[2].maxTraversals', { element: { type: 'edge', id: 'e3' }, section: 'edge', fields: ['maxTraversals'] }],
    ['$.output', { element: { type: 'workflow' }, section: 'data', fields: ['output'] }],
    ['$.input.properties.amount', { element: { type: 'workflow' }, section: 'data', fields: ['input.properties.amount', 'input.properties', 'input'] }],
    ['$.limits.concurrency["gpu pool"]', { element: { type: 'workflow' }, section: 'limits', fields: ['limits.concurrency.gpu pool', 'limits.concurrency', 'limits'] }],
    ['$.id', { element: { type: 'workflow' }, section: 'basics', fields: ['id'] }],
    ['$', { element: { type: 'workflow' }, section: null, fields: [] }],
    ['$.steps', { element: { type: 'workflow' }, section: null, fields: [] }],
    ['$.layout.quote.x', { element: { type: 'workflow' }, section: null, fields: [] }],
  ])('%s', (site, expected) => {
    expect(focusTarget(doc, site)).toEqual(expected);
  });

  it('is null for a step or edge the document no longer has, and for a malformed path', () => {
    expect(focusTarget(doc, '$.steps[7].input')).toBeNull();
    expect(focusTarget(doc, '$.edges[9].when')).toBeNull();
    expect(focusTarget(doc, 'steps[0]')).toBeNull();
  });
});
