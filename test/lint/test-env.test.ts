// Tests that change process.env put it back: a variable left set (a config folder, a lease wait)
// changes what the next test in the same worker sees. Tests set variables only through
// test/env-override.ts (which returns the restore), or pass them to a child's own environment.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const TEST_DIR = join(import.meta.dirname, '..');
const HELPER = 'env-override.ts';
/** `process.env.X = …`, `process.env['X'] = …`, `delete process.env…`, `Object.assign(process.env, …)`. */
const MUTATION = /(?<![.\w])process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete\s+process\.env|Object\.assign\(\s*process\.env\b/;

it('no test file mutates process.env except through env-override.ts', () => {
  const offenders: string[] = [];
  for (const file of readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(ts|mjs|js)$/.test(file) || file === HELPER || file === join('lint', 'test-env.test.ts') || file.split('/').includes('fixtures')) continue;
    readFileSync(join(TEST_DIR, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (MUTATION.test(line)) offenders.push(`test/${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(offenders).toEqual([]);
});

it('the pattern catches each way of mutating process.env, and not reads', () => {
  for (const line of ["process.env['A'] = 'x';", 'process.env.A = "x";', "delete process.env['A'];", 'Object.assign(process.env, { A: 1 });']) {
    expect(MUTATION.test(line), line).toBe(true);
  }
  for (const line of ["const a = process.env['A'] ?? 1;", "if (process.env['A'] === '1') {}", 'spawn(x, { env: { ...process.env, A: "1" } });']) {
    expect(MUTATION.test(line), line).toBe(false);
  }
});
