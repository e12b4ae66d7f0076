// Bad debug flags of `weft run` through main() in-process: each exits 2 with one line naming the
// flag and leaves no store behind. The same argv, exit code and output as the binary without a
// process start per case; debug-cli.test.ts runs two of them through the real binary.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { weftInProcess } from './capture-io.ts';
import { BAD_DEBUG_FLAGS, writeDebugFlow } from './debug-flow.ts';
import { STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-debug-flags-'));
const file = writeDebugFlow(dir, join(dir, 'calls.txt'));
// The workflow has a command step: trusted in this test's own config folder, as the binary's test does.
const restore = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') });
afterAll(restore);

beforeAll(async () => {
  expect((await weftInProcess(['trust', dir], dir)).code).toBe(0);
});

describe('bad debug flags', () => {
  it.each(BAD_DEBUG_FLAGS)('%s: exit 2, one line naming the flag, no store made', async (_name, flags, message) => {
    const db = join(dir, `bad-${flags.join('').replace(/\W/g, '')}.db`);
    const r = await weftInProcess(['run', file, ...flags, '--db', db], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(STACK_LINE);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(db)).toBe(false);
  });
});
