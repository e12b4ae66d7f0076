// `weft validate` on every validator fixture: each bad fixture with an error exits 1 and its
// output names the offending step (or edge); each good fixture and each example exits 0.
// In-process through main(), the same code bin/weft.js runs (child processes are covered in
// validate-cli.test.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../engine/cli/main.ts';
import { captureIo } from './capture-io.ts';
import { REPO_ROOT } from './run-weft.ts';

const dir = 'test/fixtures/validator';
const cases = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'cases.json'), 'utf8')) as Record<string, { code: string; severity: string }>;

describe('weft validate on the validator fixtures', () => {
  it.each(Object.entries(cases).filter(([, c]) => c.severity === 'error'))('%s.bad exits 1 naming the step', async (name, { code }) => {
    const file = `${dir}/${name}.bad.weft.json`;
    const io = captureIo(REPO_ROOT);
    expect(await main(['validate', '--json', file], io)).toBe(1);
    const report = JSON.parse(io.out()) as { files: { diagnostics: { code: string; stepId?: string; edgeId?: string }[] }[] };
    const hits = report.files[0]?.diagnostics.filter((d) => d.code === code) ?? [];
    expect(hits.length).toBeGreaterThan(0);

    const human = captureIo(REPO_ROOT);
    expect(await main(['validate', file], human)).toBe(1);
    for (const d of hits) {
      const who = d.stepId ?? (d.edgeId === undefined ? 'workflow' : `edge ${d.edgeId}`);
      expect(human.out()).toContain(`${file}: ${who}: ${code}: `);
    }
  });

  it('exits 0 on every good fixture and every example', async () => {
    const files = [
      ...Object.keys(cases).map((name) => `${dir}/${name}.good.weft.json`),
      ...readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.weft.json')).map((f) => `examples/${f}`),
    ];
    const io = captureIo(REPO_ROOT);
    expect(await main(['validate', ...files], io)).toBe(0);
    expect(io.out()).not.toMatch(/: \d+ errors?/);
  });
});
