// The `weft` command line: picks the subcommand, prints help, and turns every outcome into an
// exit code. Testable in-process: output goes through `io`, nothing here calls process.exit.
// Only the command that runs is loaded (command-list.ts): `weft --version` loads none, and a
// listing of every command (`weft --help`, a mistyped name) loads them all for their summaries.
import { isUserError, userMessage } from './cli-errors.ts';
import type { CliIo } from './cli-io.ts';
import type { Command, CommandEntry } from './command.ts';
import { COMMANDS } from './command-list.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { readVersion } from './read-version.ts';
import { formatCommandHelp, formatUsage, formatUsageReminder } from './usage.ts';
import { UsageError } from './usage-error.ts';

/**
 * Runs `weft` with the arguments after the program name and returns the exit code.
 *
 * @example
 * const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
 */
export async function main(argv: readonly string[], io: CliIo, commands: readonly CommandEntry[] = COMMANDS): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(formatUsage(await loadAll(commands)));
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h') {
    io.stdout.write(formatUsage(await loadAll(commands)));
    return EXIT_OK;
  }
  if (name === '--version') {
    io.stdout.write(`${readVersion()}\n`);
    return EXIT_OK;
  }
  if (name === 'help') return help(rest, io, commands);
  const entry = commands.find((c) => c.name === name);
  if (entry === undefined) {
    const what = name.startsWith('-') ? `unknown option "${name}" (options go after the command)` : `unknown command "${name}"`;
    io.stderr.write(`weft: ${what}\n\n${formatUsage(await loadAll(commands))}`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  if (asksForHelp(rest)) {
    io.stdout.write(formatCommandHelp(command));
    return EXIT_OK;
  }
  return runCommand(command, rest, io);
}

/** Every command, loaded, in the list's order: for the usage, which shows each one's summary. */
function loadAll(commands: readonly CommandEntry[]): Promise<Command[]> {
  return Promise.all(commands.map((c) => c.load()));
}

async function runCommand(command: Command, args: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`weft ${command.name}: ${error.message}\n${formatUsageReminder(command)}`);
      return EXIT_USAGE;
    }
    // A flag's value that a command reads before its store (--data @file, …): the user's to fix.
    if (isUserError(error)) {
      io.stderr.write(`weft ${command.name}: ${userMessage(error)}\n`);
      return EXIT_USAGE;
    }
    // Not the user's doing: a bug. The stack is for the bug report.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(
      `weft ${command.name}: internal error (this is a bug in weft; please report it with the command you ran)\n${detail}\n`,
    );
    return EXIT_FAILED;
  }
}

async function help(args: readonly string[], io: CliIo, commands: readonly CommandEntry[]): Promise<number> {
  const [topic] = args;
  if (topic === undefined) {
    io.stdout.write(formatUsage(await loadAll(commands)));
    return EXIT_OK;
  }
  const entry = commands.find((c) => c.name === topic);
  if (entry === undefined) {
    io.stderr.write(`weft help: unknown command "${topic}"\n\n${formatUsage(await loadAll(commands))}`);
    return EXIT_USAGE;
  }
  io.stdout.write(formatCommandHelp(await entry.load()));
  return EXIT_OK;
}

/** `-h`/`--help` anywhere before a `--` asks for the command's help instead of running it. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
