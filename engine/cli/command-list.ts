// Every `weft` subcommand, in the order `weft --help` lists them. A new command is one file
// under commands/ and one line here.
import type { Command } from './command.ts';
import { validateCommand } from './commands/validate-command.ts';
import { diffCommand } from './commands/diff-command.ts';
import { compareCommand } from './commands/compare-command.ts';
import { runCommand } from './commands/run-command.ts';
import { runsCommand } from './commands/runs-command.ts';
import { inspectCommand } from './commands/inspect-command.ts';
import { eventsCommand } from './commands/events-command.ts';
import { resumeCommand } from './commands/resume-command.ts';
import { reviseCommand } from './commands/revise-command.ts';
import { forkCommand } from './commands/fork-command.ts';
import { approveCommand, reassignCommand, rejectCommand } from './commands/task-commands.ts';
import { tasksCommand } from './commands/tasks-command.ts';
import { sendCommand } from './commands/send-command.ts';
import { trustCommand } from './commands/trust-command.ts';
import { testCommand } from './commands/test-command.ts';
import { statsCommand } from './commands/stats-command.ts';
import { serveCommand } from './commands/serve-command.ts';
import { cancelCommand, continueCommand, keepCommand, pauseCommand, resolveCommand, retryCommand, skipCommand, stepCommand } from './commands/operator-commands.ts';

export const COMMANDS: readonly Command[] = [
  validateCommand,
  diffCommand,
  runCommand,
  runsCommand,
  inspectCommand,
  compareCommand,
  eventsCommand,
  resumeCommand,
  reviseCommand,
  forkCommand,
  approveCommand,
  rejectCommand,
  reassignCommand,
  tasksCommand,
  sendCommand,
  pauseCommand,
  continueCommand,
  stepCommand,
  cancelCommand,
  retryCommand,
  skipCommand,
  resolveCommand,
  keepCommand,
  trustCommand,
  testCommand,
  statsCommand,
  serveCommand,
];
