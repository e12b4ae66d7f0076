// Every `weft` subcommand, in the order `weft --help` lists them. A new command is one file
// under commands/ and one line here.
import type { Command } from './command.ts';
import { validateCommand } from './commands/validate-command.ts';

export const COMMANDS: readonly Command[] = [validateCommand];
