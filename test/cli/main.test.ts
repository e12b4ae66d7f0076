// main() in-process: dispatch, help, and how each kind of failure becomes an exit code.
import { describe, expect, it } from 'vitest';
import { loadedEntry, type Command, type CommandEntry } from '../../engine/cli/command.ts';
import { main } from '../../engine/cli/main.ts';
import { UsageError } from '../../engine/cli/usage-error.ts';
import { captureIo } from './capture-io.ts';
import { REPO_ROOT } from './run-weft.ts';

const fake = (run: Command['run']): CommandEntry => loadedEntry({ name: 'fake', summary: 'a test command', usage: 'weft fake X', help: 'Fake help.', run });

/** Entries that count their loads: a start must load only the command it runs. */
function counted(names: readonly string[]): { entries: CommandEntry[]; loads: string[] } {
  const loads: string[] = [];
  const entries = names.map((name) => ({
    name,
    load: () => {
      loads.push(name);
      return Promise.resolve({ name, summary: `the ${name} command`, usage: `weft ${name}`, help: `${name} help.`, run: () => Promise.resolve(0) } satisfies Command);
    },
  }));
  return { entries, loads };
}

describe('main', () => {
  it('runs validate relative to io.cwd', async () => {
    const io = captureIo(REPO_ROOT);
    expect(await main(['validate', 'test/fixtures/cli/valid.weft.json'], io)).toBe(0);
    expect(io.out()).toBe('test/fixtures/cli/valid.weft.json: valid\n');
  });

  it.each([
    [['help', 'validate']],
    [['validate', '--help']],
    [['validate', 'x.weft.json', '-h']],
  ])('prints the command help for %j', async (argv) => {
    const io = captureIo(REPO_ROOT);
    expect(await main(argv, io)).toBe(0);
    expect(io.out()).toMatch(/^usage: weft validate FILE\|DIR\.\.\. \[--json\]\n/);
  });

  it('treats --help after -- as a file name', async () => {
    const io = captureIo(REPO_ROOT);
    expect(await main(['validate', '--', '--help'], io)).toBe(2);
    expect(io.err()).toContain('--help: no such file');
  });

  it('rejects an unknown help topic and an option before the command', async () => {
    for (const argv of [['help', 'nope'], ['--json']]) {
      const io = captureIo(REPO_ROOT);
      expect(await main(argv, io)).toBe(2);
      expect(io.err()).toContain('usage: weft <command>');
    }
  });

  it('lists the commands it is given in the usage', async () => {
    const io = captureIo(REPO_ROOT);
    expect(await main(['--help'], io, [fake(async () => 0)])).toBe(0);
    expect(io.out()).toContain('  fake   a test command');
  });

  it('prints a UsageError with the command usage and exits 2, without a stack', async () => {
    const io = captureIo(REPO_ROOT);
    const code = await main(['fake'], io, [fake(async () => Promise.reject(new UsageError('needs X')))]);
    expect(code).toBe(2);
    expect(io.err()).toBe('weft fake: needs X\nusage: weft fake X\nRun "weft help fake" for details.\n');
  });

  it('reports an unexpected exception as an internal error with its stack, exit 1', async () => {
    const io = captureIo(REPO_ROOT);
    const code = await main(['fake'], io, [fake(async () => Promise.reject(new TypeError('boom')))]);
    expect(code).toBe(1);
    expect(io.err()).toContain('weft fake: internal error (this is a bug in weft');
    expect(io.err()).toContain('TypeError: boom');
  });

  it('loads no command for --version, and only the command it runs or explains', async () => {
    const { entries, loads } = counted(['one', 'two', 'three']);
    expect(await main(['--version'], captureIo(REPO_ROOT), entries)).toBe(0);
    expect(loads).toEqual([]);
    expect(await main(['two', 'x'], captureIo(REPO_ROOT), entries)).toBe(0);
    expect(await main(['help', 'three'], captureIo(REPO_ROOT), entries)).toBe(0);
    expect(await main(['one', '--help'], captureIo(REPO_ROOT), entries)).toBe(0);
    expect(loads).toEqual(['two', 'three', 'one']);
  });

  it('loads every command to list their summaries', async () => {
    for (const argv of [[], ['--help'], ['help'], ['nope'], ['help', 'nope']]) {
      const { entries, loads } = counted(['one', 'two']);
      const io = captureIo(REPO_ROOT);
      await main(argv, io, entries);
      expect(io.out() + io.err()).toContain('  two    the two command');
      expect(loads.sort()).toEqual(['one', 'two']);
    }
  });
});
