// The handoffs panel rendered to HTML by React itself (no DOM library is installed, so clicks are
// left to the editor's Playwright tests): the rows, their data attributes and the fix buttons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

type Selection = { kind: 'step' | 'edge'; id: string } | null;
interface Props {
  workflow: Workflow;
  selection: Selection;
  onSelectStep: (id: string) => void;
  onApplyFix: (next: Workflow) => void;
  onFocusSite: (site: string) => void;
}

// Imported by a computed path: the root tsconfig (which type-checks test/) has no JSX; the
// renderer's own tsconfig checks the component.
const panelModule = '../../renderer/editor/handoffs-panel.tsx';
const { HandoffsPanel } = (await import(/* @vite-ignore */ panelModule)) as { HandoffsPanel: FunctionComponent<Props> };

const load = (file: string) => validateDefinitionText(readFileSync(join(import.meta.dirname, '..', '..', file), 'utf8')).workflow as Workflow;
const render = (workflow: Workflow, selection: Selection) =>
  renderToStaticMarkup(createElement(HandoffsPanel, { workflow, selection, onSelectStep: () => {}, onApplyFix: () => {}, onFocusSite: () => {} }));
const rows = (html: string) => [...html.matchAll(/<li[^>]*data-testid="handoff-read"[^>]*>/g)].map((m) => m[0]);
const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

describe('HandoffsPanel', () => {
  it('flags the read only one branch produces, names the branch and offers the guard', () => {
    const html = render(load('test/fixtures/handoffs/one-branch.weft.json'), { kind: 'step', id: 'report' });
    expect(html).toContain('data-testid="handoffs"');
    const read = rows(html).map((r) => [attr(r, 'data-field'), attr(r, 'data-source'), attr(r, 'data-flagged')]);
    expect(read).toEqual([
      ['input.orderId', 'input', 'false'],
      ['steps.full_price.output.total', 'full_price', 'true'],
    ]);
    expect(html).toContain('Not produced when the run goes through');
    expect(html).toMatch(/quick_estimate<\/button>/);
    expect(html).toContain('data-testid="handoff-fix-guard"');
    expect(html).toContain('may not have run');
  });

  it('shows nothing flagged on the clean twin', () => {
    const html = render(load('test/fixtures/handoffs/one-branch-clean.weft.json'), { kind: 'step', id: 'report' });
    expect(rows(html).length).toBe(4);
    expect(rows(html).every((r) => attr(r, 'data-flagged') === 'false')).toBe(true);
    expect(html).not.toContain('handoff-fix-');
  });

  it('offers to declare an undeclared field in the source step\'s output', () => {
    const w = load('test/fixtures/handoffs/one-branch-clean.weft.json');
    const step = w.steps.find((s) => s.id === 'full_price') as { accept?: string };
    step.accept = 'output.currency = "EUR"';
    const html = render(w, { kind: 'step', id: 'full_price' });
    expect(html).toContain('data-testid="handoff-fix-declare"');
    expect(html).toContain('Declare in full_price output');
    expect(html).toContain('not declared');
  });

  it('lists the fields flowing along an edge, and says so when none do', () => {
    const w = load('examples/trip-saga.weft.json');
    expect(rows(render(w, { kind: 'edge', id: 'trip_confirmed' })).map((r) => attr(r, 'data-source'))).toEqual(['book_flight', 'book_hotel', 'book_car']);
    expect(render(w, { kind: 'edge', id: 'flight_failed' })).toContain('No field of an earlier step is read across this edge.');
    expect(render(w, null)).toContain('Select a step');
  });
});
