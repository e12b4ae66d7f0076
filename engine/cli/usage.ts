// Help texts built from the command list, so `weft --help` never goes stale when commands are added.
import type { Command } from './command.ts';

export function formatUsage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 'help'.length) + 3;
  const rows = [...commands.map((c) => [c.name, c.summary] as const), ['help', 'show help for a command'] as const];
  return `usage: weft <command> [arguments]

Weft Studio: design, run and debug durable AI-agent and automation workflows.

commands:
${rows.map(([name, summary]) => `  ${name.padEnd(width)}${summary}`).join('\n')}

Run "weft help <command>" or "weft <command> --help" for a command's arguments.
Exit status: 0 success, 1 failed or invalid, 2 usage or I/O error,
3 run left waiting or needing attention.
`;
}

export function formatCommandHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.help}\n`;
}

/** The short reminder printed under a usage error. */
export function formatUsageReminder(command: Command): string {
  return `usage: ${command.usage}\nRun "weft help ${command.name}" for details.\n`;
}
