// The unit lane (test/lanes.ts, `npm run test:unit`) runs code in the test's own process, so it
// stays fast: a test there that starts the real `weft` binary or `weft serve` belongs in the
// process lane. This check names such a file and says how to fix it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { laneOf, PROCESS_FILES, testFiles, UNIT_FOLDERS } from '../lanes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** A call of the helpers that start the CLI or the server as a child process. */
const STARTS_A_PROCESS = /\b(runWeft|startServe|startServeProcess|startCli|runCli|cliJson)\(|\bWEFT_BIN\b/;

it('no unit-lane test starts the weft binary or weft serve', () => {
  const offenders = testFiles(ROOT)
    .filter((file) => laneOf(file) === 'unit' && file !== 'test/lint/test-lanes.test.ts')
    .filter((file) => STARTS_A_PROCESS.test(readFileSync(join(ROOT, file), 'utf8')))
    .map((file) => `${file}: starts weft as a child process; call main() in this process (test/cli/capture-io.ts weftInProcess) or add the file to PROCESS_FILES in test/lanes.ts`);
  expect(offenders).toEqual([]);
});

it('puts each file in the lane of its folder, the CLI tests and the listed files in the process lane', () => {
  expect(laneOf('test/shared/parse-definition.test.ts')).toBe('unit');
  expect(laneOf('test/renderer/editor/editor-store.test.ts')).toBe('unit');
  expect(laneOf('test/engine/store.test.ts')).toBe('unit');
  expect(laneOf('test/shared/api/read-models-cli.test.ts')).toBe('process');
  expect(laneOf('test/cli/run-cli.test.ts')).toBe('process');
  expect(laneOf('test/cli/main.test.ts')).toBe('unit');
  expect(laneOf('test/crash/send-kill.test.ts')).toBe('process');
  expect(laneOf('test/renderer/timeline/timeline.browser.test.ts')).toBe('process');
  expect(laneOf('test/server/event-stream.test.ts')).toBe('process');
  expect(laneOf('test/a-new-folder/x.test.ts')).toBe('process');
  for (const file of PROCESS_FILES) {
    expect(laneOf(file), file).toBe('process');
    expect(existsSync(join(ROOT, file)), `${file} is listed in test/lanes.ts but does not exist`).toBe(true);
  }
  for (const folder of UNIT_FOLDERS) expect(folder.endsWith('/'), folder).toBe(true);
  expect(STARTS_A_PROCESS.test("const r = await runWeft(['stats'], dir);")).toBe(true);
  expect(STARTS_A_PROCESS.test('served = await startServe(ws);')).toBe(true);
  expect(STARTS_A_PROCESS.test("const child = startCli(['run', file], dir);")).toBe(true);
  expect(STARTS_A_PROCESS.test('spawn(process.execPath, [WEFT_BIN, "serve"])')).toBe(true);
  expect(STARTS_A_PROCESS.test('server = await startServer((req, res) => json(res, 200, {}));')).toBe(false);
});
