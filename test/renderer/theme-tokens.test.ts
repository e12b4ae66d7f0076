// The state colours of renderer/theme/tokens.css, read from the file: each is readable as text
// (WCAG AA, 4.5:1) on the page, on raised surfaces and on its own badge tint, in both themes
// (docs/accessibility.md); and the colours the timeline gives an attempt's outcome are told apart
// at a glance (CIE76 ΔE of at least 40 between any two), so a partial attempt does not read as a
// success.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Rgb = [number, number, number];
const css = readFileSync(new URL('../../renderer/theme/tokens.css', import.meta.url), 'utf8');

/** The `--name: #rrggbb` tokens of one theme's block. */
function tokens(theme: 'light' | 'dark'): Map<string, Rgb> {
  const start = css.indexOf(theme === 'light' ? ":root[data-theme='light']" : ":root[data-theme='dark']");
  const block = css.slice(start, css.indexOf('}', start));
  const out = new Map<string, Rgb>();
  for (const m of block.matchAll(/--([a-z-]+):\s*#([0-9a-f]{6});/g)) {
    const h = m[2] ?? '';
    out.set(m[1] ?? '', [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb);
  }
  return out;
}

const linear = (c: number): number => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]: Rgb): number => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
const contrast = (a: Rgb, b: Rgb): number => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};
const tint = (c: Rgb, over: Rgb, share: number): Rgb => c.map((v, i) => v * share + (over[i] ?? 0) * (1 - share)) as Rgb;

function lab(c: Rgb): Rgb {
  const [r, g, b] = c.map(linear) as Rgb;
  const f = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a: Rgb, b: Rgb): number => Math.hypot(...lab(a).map((v, i) => v - (lab(b)[i] ?? 0)));

/** The attempt outcomes the timeline colours (renderer/runs/timeline/timeline.css), by their tokens. */
const OUTCOMES = ['state-succeeded', 'state-failed', 'state-unknown', 'state-partial', 'state-running'];

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  const t = tokens(theme);
  const get = (name: string): Rgb => {
    const c = t.get(name);
    if (c === undefined) throw new Error(`tokens.css has no --${name} in the ${theme} theme`);
    return c;
  };

  it.each([...t.keys()].filter((k) => k.startsWith('state-')))('--%s reads as text on the page, raised surfaces and its badge tint', (name) => {
    const c = get(name);
    for (const surface of ['bg', 'bg-raised']) {
      expect(contrast(c, get(surface)), `on --${surface}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c, tint(c, get(surface), 0.16)), `on its 16% tint over --${surface}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the attempt outcomes are told apart: partial is no shade of success', () => {
    for (const a of OUTCOMES) for (const b of OUTCOMES) if (a < b) expect(deltaE(get(a), get(b)), `--${a} and --${b}`).toBeGreaterThanOrEqual(40);
  });
});
