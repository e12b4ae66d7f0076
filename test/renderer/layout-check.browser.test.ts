// The screenshot assertion itself (test/layout-check.ts), in chromium on a page made to go wrong
// in each way it looks for: a check that cannot fail would let every screenshot test pass.
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { layoutProblems } from '../layout-check.ts';
import { launchChromium, newHarnessPage } from './browser-harness.ts';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await newHarnessPage(browser, { viewport: { width: 400, height: 300 } });
  await page.setContent(`<!doctype html><body style="margin:0">
    <div data-testid="a" style="position:absolute; left:10px; top:10px; width:100px; height:40px"></div>
    <div data-testid="b" style="position:absolute; left:120px; top:10px; width:100px; height:40px"></div>
    <div data-testid="touching" style="position:absolute; left:220px; top:10px; width:50px; height:40px"></div>
    <div data-testid="over-a" style="position:absolute; left:60px; top:30px; width:100px; height:40px"></div>
    <div data-testid="box" style="position:absolute; left:10px; top:100px; width:200px; height:60px; overflow:hidden">
      <div data-testid="inside" style="width:100px; height:20px"></div>
      <div data-testid="cut" style="position:relative; left:150px; width:100px; height:20px"></div>
    </div>
    <div data-testid="below" style="position:absolute; left:10px; top:280px; width:50px; height:50px"></div>
    <div data-testid="hidden" style="position:absolute; left:300px; top:100px; width:50px; height:50px; visibility:hidden"></div>
    <span data-testid="twice"></span><span data-testid="twice"></span>
    <div data-testid="dialog" style="position:fixed; left:250px; top:200px; width:100px; height:50px"></div>
  </body>`);
});

afterAll(async () => {
  await browser?.close();
});

const id = (testId: string) => page.getByTestId(testId);

it('passes what is laid out well: apart, touching at an edge, or one inside the other', async () => {
  expect(await layoutProblems(page, { a: id('a'), b: id('b'), touching: id('touching'), box: id('box'), inside: id('inside'), dialog: id('dialog') })).toEqual([]);
});

it('names each problem: an overlap, a clip, a box past the window, a hidden one, a missing one, an ambiguous one', async () => {
  expect(
    await layoutProblems(page, {
      a: id('a'),
      'over a': id('over-a'),
      cut: id('cut'),
      below: id('below'),
      hidden: id('hidden'),
      missing: id('nothing-like-it'),
      twice: id('twice'),
    }),
  ).toEqual([
    'missing: not in the page',
    'twice: 2 elements match, expected one',
    'cut: clipped by [data-testid="box"] by 50 px',
    'below: outside the 400×300 viewport (10,280 50×50)',
    'hidden: not visible (300,100 50×50)',
    'a and over a overlap (10,10 100×40 and 60,30 100×40)',
  ]);
});
