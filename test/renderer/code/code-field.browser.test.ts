// CodeField mounted in a real browser (Debian's chromium, driven by Playwright), built by esbuild
// from the real component: no jsdom here, and CodeMirror measures layout, which jsdom cannot.
// Every wait is for a state in the page, never for time: where CodeMirror ignores a key or a
// click for a moment after its completion list opens (its interactionDelay), the test acts again
// until the state shows the act was taken.
import type { Browser, Page } from '@playwright/test';
import { bundleHarness, collectPageErrors, launchChromium, mountable, newHarnessPage, remountHarness, shootBothThemes } from '../browser-harness.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../engine/server/security.ts';

const HARNESS = `
import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { EditorView } from '@codemirror/view';
import { CodeField } from './renderer/code/code-field.tsx';

const scope = {
  input: ['orderId', 'customer.name'],
  steps: [
    { id: 'maybe', kind: 'http', fields: ['status'], guaranteed: false },
    { id: 'review', kind: 'human', fields: ['decision', 'reason'], guaranteed: true },
  ],
  run: ['id'],
};

function App() {
  const [expr, setExpr] = useState('input.orderId');
  const [mode, setMode] = useState('jsonata');
  const [schema, setSchema] = useState('{"type": "object"}');
  const [external, setExternal] = useState([]);
  const [submits, setSubmits] = useState(0);
  const [renders, setRenders] = useState(0);
  const exprRef = useRef(null);
  const schemaRef = useRef(null);
  const view = (id) => EditorView.findFromDOM(document.querySelector('[data-testid="' + id + '"] .cm-editor'));
  window.harness = {
    changes: window.harness?.changes ?? [],
    setExpr, setMode, setSchema, setExternal, rerender: () => setRenders((n) => n + 1),
    focus: (offset) => exprRef.current.focus(offset),
    focusSchema: (offset) => schemaRef.current.focus(offset),
    text: (id) => view(id).state.doc.toString(),
    cursor: (id) => view(id).state.selection.main.head,
    submits,
  };
  return (
    <div style={{ width: 420, padding: 16, display: 'grid', gap: 12 }}>
      <CodeField ref={exprRef} value={expr} onChange={(v) => { window.harness.changes.push(v); setExpr(v); }}
        mode={mode} label="Step input" testId="expr" scope={scope} externalDiagnostics={external}
        onSubmit={() => setSubmits((n) => n + 1)} />
      <button data-testid="after">after</button>
      <CodeField ref={schemaRef} value={schema} onChange={setSchema} mode="json-schema" label="Input schema" testId="schema" />
      <span data-testid="renders">{renders}</span>
    </div>
  );
}
${mountable('<StrictMode><App /></StrictMode>')}`;

let browser: Browser;
let page: Page;
/** The harness as `weft serve` would send it: separate files, under the app's Content-Security-Policy. */
const files = new Map<string, { type: string; body: string }>();
const ORIGIN = 'http://weft.test';

beforeAll(async () => {
  for (const [path, file] of await bundleHarness(HARNESS, 'harness.tsx', { themes: ['tokens.css', 'app.css'] })) files.set(path, file);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface Served {
  /** The Content-Security-Policy header; none by default. */
  csp?: string;
  /** Published as Vite does, `<meta property="csp-nonce" nonce="...">`. */
  nonce?: string;
}

const VIEWPORT = { width: 520, height: 420 };

/** A new page of the harness, served with `served`'s header and meta; its errors go to pageErrors. */
async function open(served: Served = {}): Promise<void> {
  page = await newHarnessPage(browser, { viewport: VIEWPORT });
  pageErrors = collectPageErrors(page);
  const meta = served.nonce === undefined ? '' : `<meta property="csp-nonce" nonce="${served.nonce}">`;
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = files.get(path);
    if (file === undefined) return route.fulfill({ status: 404 });
    const body = path === '/' ? file.body.replace('<head>', `<head>${meta}`) : file.body;
    return route.fulfill({ status: 200, contentType: file.type, body, headers: served.csp === undefined ? {} : { 'content-security-policy': served.csp } });
  });
  await page.goto(`${ORIGIN}/`);
  await harnessReady();
}

const harnessReady = () => page.waitForFunction('window.harness !== undefined');

let pageErrors: string[] = [];

const js = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

/**
 * Gives a field a value from outside, as the app does, and waits until its editor shows it: the
 * value lands with React's next render, and keys typed before that would be overwritten by it.
 */
async function setField(field: 'expr' | 'schema', text: string): Promise<void> {
  await js(`window.harness.${field === 'expr' ? 'setExpr' : 'setSchema'}(${JSON.stringify(text)})`);
  await expect.poll(() => js<string>(`window.harness.text('${field}')`)).toBe(text);
}
const box = (id: string) => page.getByTestId(`${id}-input`);

describe('CodeField in chromium', () => {
  // One page for these tests (served without a policy), its harness mounted anew for each.
  beforeAll(() => open());
  afterAll(() => page.close());
  beforeEach(async () => {
    await remountHarness(page, VIEWPORT);
    await harnessReady();
  });
  afterEach(() => {
    // Nothing the field does may throw or log an error (the page's loading counts for the first).
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('labels the text box and calls onChange per edit', async () => {
    await expect(page.getByRole('textbox', { name: 'Step input' }).count()).resolves.toBe(1);
    await js('window.harness.focus(13)');
    await page.keyboard.type('.x');
    await expect.poll(() => js<boolean>(`window.harness.changes.at(-1) === 'input.orderId.x'`)).toBe(true);
    expect(await js<string[]>('window.harness.changes')).toEqual(['input.orderId.', 'input.orderId.x']);
    expect(await box('expr').textContent()).toBe('input.orderId.x');
  });

  it('takes an outside value into the same view, keeping the cursor, without echoing it', async () => {
    await page.evaluate(`document.querySelector('[data-testid="expr"] .cm-editor').dataset.mark = 'first'`);
    await js('window.harness.focus(6)');
    await js(`window.harness.setExpr('$$.input.orderId')`);
    await expect.poll(() => js<boolean>(`window.harness.text('expr') === '$$.input.orderId'`)).toBe(true);
    // Same EditorView element, cursor moved with the text inserted before it, no onChange.
    expect(await js<string>(`document.querySelector('[data-testid="expr"] .cm-editor').dataset.mark`)).toBe('first');
    expect(await js<number>(`window.harness.cursor('expr')`)).toBe(9);
    expect(await js<string[]>('window.harness.changes')).toEqual([]);
    // A re-render with the same value changes nothing.
    await js('window.harness.rerender()');
    await expect.poll(() => js<boolean>(`document.querySelector('[data-testid="renders"]').textContent === '1'`)).toBe(true);
    expect(await js<number>(`window.harness.cursor('expr')`)).toBe(9);
  });

  it('focus(offset) puts the cursor there, clamped to the text', async () => {
    await js('window.harness.focusSchema(3)');
    expect(await js<boolean>(`document.activeElement === document.querySelector('[data-testid="schema-input"]')`)).toBe(true);
    expect(await js<number>(`window.harness.cursor('schema')`)).toBe(3);
    await js('window.harness.focus(999)');
    expect(await js<boolean>(`document.activeElement === document.querySelector('[data-testid="expr-input"]')`)).toBe(true);
    expect(await js<number>(`window.harness.cursor('expr')`)).toBe('input.orderId'.length);
  });

  it('completes step ids, accepts with Tab, and Tab otherwise leaves the field', async () => {
    await setField('expr', '');
    await js('window.harness.focus(0)');
    await page.keyboard.type('steps.');
    const list = page.locator('.cm-tooltip-autocomplete li');
    await expect.poll(() => list.allTextContents()).toEqual(['reviewhuman', 'maybehttp']);
    // CodeMirror ignores keys for a moment after the list opens; Tab then does nothing, so press
    // until the state shows it was taken (each press either accepts or is swallowed).
    await expect
      .poll(async () => {
        const text = await js<string>(`window.harness.text('expr')`);
        if (text === 'steps.') await page.keyboard.press('Tab');
        return js<string>(`window.harness.text('expr')`);
      })
      .toBe('steps.review');
    expect(await list.count()).toBe(0);
    expect(await js<boolean>(`document.activeElement === document.querySelector('[data-testid="expr-input"]')`)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await js<string>('document.activeElement.dataset.testid')).toBe('after');
  });

  it('Escape closes completion; a function completes into a call', async () => {
    await setField('expr', '');
    await js('window.harness.focus(0)');
    await page.keyboard.type('$exi');
    const list = page.locator('.cm-tooltip-autocomplete');
    await list.waitFor();
    // CodeMirror ignores keys and clicks on a list for its interactionDelay (75 ms) after it
    // opens, so a fast typist's next key is not taken as a choice. However slowly this machine
    // gets there, act until the state shows the act was taken (each one is taken or ignored).
    await expect
      .poll(async () => {
        if ((await list.count()) > 0) await page.keyboard.press('Escape');
        return list.count();
      })
      .toBe(0);
    expect(await js<string>(`window.harness.text('expr')`)).toBe('$exi');
    await page.keyboard.press('Control+Space');
    await list.waitFor();
    await expect
      .poll(async () => {
        if ((await js<string>(`window.harness.text('expr')`)) === '$exi') await list.getByText('$exists').click();
        return js<string>(`window.harness.text('expr')`);
      })
      .toBe('$exists()');
    expect(await js<number>(`window.harness.cursor('expr')`)).toBe('$exists('.length);
  });

  it('shows a syntax error as you type and marks the box invalid', async () => {
    await js('window.harness.focus(13)');
    await page.keyboard.type(' andd');
    await page.locator('[data-testid="expr"] .cm-lintRange-error').waitFor();
    expect(await page.locator('[data-testid="expr"] .cm-lintRange-error').textContent()).toBe('andd');
    await expect.poll(() => js<boolean>(`document.querySelector('[data-testid="expr-input"]').getAttribute('aria-invalid') === 'true'`)).toBe(true);
  });

  it('shows outside diagnostics at their offset, and drops them when cleared', async () => {
    await js(`window.harness.setExternal([{ from: 13, message: 'orderId is not declared', severity: 'warning' }])`);
    const range = page.locator('[data-testid="expr"] .cm-lintRange-warning');
    await range.waitFor();
    expect(await range.textContent()).toBe('orderId');
    await js('window.harness.setExternal([])');
    await range.waitFor({ state: 'detached' });
  });

  it('checks a JSON Schema as you type', async () => {
    await js(`window.harness.setSchema('{"type": "objec"}')`);
    const range = page.locator('[data-testid="schema"] .cm-lintRange-error');
    await range.waitFor();
    expect(await range.textContent()).toBe('"objec"');
    await range.hover();
    await expect.poll(() => page.locator('.cm-tooltip-lint').textContent()).toContain('/type');
  });

  it('switches mode in the same view: a template colours placeholders and checks them', async () => {
    await js(`window.harness.setExpr('Hello {{ input. }}')`);
    await page.locator('[data-testid="expr"] .cm-lintRange-error').waitFor();
    await js(`window.harness.setMode('template')`);
    await page.locator('[data-testid="expr"] .cf-t-placeholder').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="expr"] .cm-lintRange-error').textContent()).toBe('.');
    await js(`window.harness.setExpr('Hello {{ input.orderId }}')`);
    await page.locator('[data-testid="expr"] .cm-lintRange-error').waitFor({ state: 'detached' });
    expect(await js<string>('window.harness.changes.length')).toBe(0);
  });

  it('calls onSubmit on Mod-Enter', async () => {
    await js('window.harness.focus(0)');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => js<boolean>('window.harness.submits === 1')).toBe(true);
  });

  it('looks right in both themes (screenshots for a person to check, asserting what they show)', async () => {
    await setField('expr', '$exists(steps.review.output) ? steps.review.output.reason /* why */ : "none" and true');
    await setField('schema', '{\n  "type": "object",\n  "properties": { "a": { "type": "strin" } }\n}');
    await page.locator('[data-testid="schema"] .cm-lintRange-error').waitFor();
    await js('window.harness.focus(8)');
    const fields = {
      'the expression': page.getByTestId('expr'),
      'the button between': page.getByTestId('after'),
      'the schema': page.getByTestId('schema'),
      "the schema's error": page.locator('[data-testid="schema"] .cm-lintRange-error'),
    };
    await shootBothThemes(page, 'code-field', fields);
    await page.setViewportSize({ width: 900, height: 420 });
    await setField('expr', 'input.orderId = steps.');
    await js('window.harness.focus(22)');
    await page.keyboard.press('Control+Space');
    const completion = page.locator('.cm-tooltip-autocomplete');
    await completion.waitFor();
    // The list opens below the line it completes, over the fields beneath (a popover), but never over that line.
    await shootBothThemes(page, 'code-field-completion', { 'the line completed': page.locator('[data-testid="expr"] .cm-line').first(), 'the completion list': completion });
  });
});

describe('CodeField under the app\'s Content-Security-Policy', () => {
  const withStyleNonce = (nonce: string): string => CONTENT_SECURITY_POLICY.replace("style-src 'self'", `style-src 'self' 'nonce-${nonce}'`);

  describe('with the style nonce published', () => {
    // One page served with the policy and its nonce, the harness mounted anew for each test.
    beforeAll(() => open({ csp: withStyleNonce('n0nce'), nonce: 'n0nce' }));
    afterAll(() => page.close());
    beforeEach(async () => {
      await remountHarness(page, VIEWPORT);
      await harnessReady();
    });
    afterEach(() => {
      // Not one refusal or error (the page's loading counts for the first test).
      expect(pageErrors.splice(0)).toEqual([]);
    });

    it('with the style nonce published, runs without a single CSP refusal', async () => {
      await js('window.harness.focus(13)');
      await page.keyboard.type(' andd');
      await page.locator('[data-testid="expr"] .cm-lintRange-error').waitFor();
      // CodeMirror's own styles applied: its cursor layer is positioned absolutely.
      expect(await js<string>(`getComputedStyle(document.querySelector('[data-testid="expr"] .cm-cursorLayer')).position`)).toBe('absolute');
      expect(pageErrors).toEqual([]);
    });

    it('says the JSON Schema check cannot run where eval is forbidden, instead of passing the schema', async () => {
      // Valid against the meta-schema: only compiling it (which needs eval) could check the rest.
      await js(`window.harness.setSchema('{"type": "object", "properties": {"id": {"type": "string"}}}')`);
      const point = page.locator('[data-testid="schema"] .cm-lintPoint-info');
      await point.waitFor({ state: 'attached' });
      // A note, not an error: the field is not known to be invalid.
      expect(await js<string>(`document.querySelector('[data-testid="schema-input"]').getAttribute('aria-invalid')`)).toBe('false');
      // The meta-schema check is compiled ahead of time (no eval), so a misspelt type is still an error there.
      await js(`window.harness.setSchema('{"type": "objec"}')`);
      const range = page.locator('[data-testid="schema"] .cm-lintRange-error');
      await range.waitFor();
      expect(await range.textContent()).toBe('"objec"');
      await expect.poll(() => js<string>(`document.querySelector('[data-testid="schema-input"]').getAttribute('aria-invalid')`)).toBe('true');
      expect(pageErrors).toEqual([]);
    });
  });

  describe('without it', () => {
    // A page of its own: the refusal comes when CodeMirror first adds its styles to the page.
    afterEach(() => page.close());

    it('without it, CodeMirror\'s styles are refused (what the server must fix) but editing still works', async () => {
      await open({ csp: CONTENT_SECURITY_POLICY });
      await js('window.harness.focus(13)');
      await page.keyboard.type('.x');
      await expect.poll(() => js<string>(`window.harness.changes.at(-1)`)).toBe('input.orderId.x');
      expect(pageErrors.some((e) => e.includes("style-src 'self'"))).toBe(true);
    });
  });
});
