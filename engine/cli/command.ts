// The shape every `weft` subcommand file exports. main.ts dispatches on `name` and prints
// `summary`/`usage`/`help`, so adding a command is one new file plus one line in command-list.ts.
// The list holds each command as a CommandEntry: its name, and its file loaded when the command
// is the one run (or its help is asked for), so a start pays only for the command it runs.
import type { CliIo } from './cli-io.ts';

export interface Command {
  name: string;
  /** One line for `weft --help`. */
  summary: string;
  /** Synopsis, e.g. `weft validate FILE|DIR... [--json]`. */
  usage: string;
  /** Full text for `weft help NAME` and `weft NAME --help` (without the usage line). */
  help: string;
  /**
   * Runs the command and returns its exit code (0 success, 1 failed or invalid, 2 usage or I/O
   * error, 3 run left waiting). Throws UsageError for bad arguments; main prints usage for it.
   */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** A command as main() finds it: its name at once, the command (texts and body) when loaded. */
export interface CommandEntry {
  /** The name the loaded command has (test/cli/command-list.test.ts holds them to it). */
  name: string;
  load(): Promise<Command>;
}

/** An entry for a command already in hand (tests, and commands made on the fly). */
export function loadedEntry(command: Command): CommandEntry {
  return { name: command.name, load: () => Promise.resolve(command) };
}
