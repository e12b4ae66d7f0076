// Every `weft` subcommand, in the order `weft --help` lists them. A new command is one file
// under commands/ and one line here.
//
// Each line imports its file dynamically, when that command runs: a static import of every
// command would load all of them (zod, the shared schemas and what each command reaches) before
// `weft --version` could print a line. The import specifiers are literal, so the bundle
// (build/bundle-cli.mjs, esbuild's splitting) puts each command in its own chunk, loaded on
// demand; test/build/cli-lazy-chunks.test.ts checks that the entry chunk reaches none of them.
import type { CommandEntry } from './command.ts';

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'validate', load: async () => (await import('./commands/validate-command.ts')).validateCommand },
  { name: 'policy', load: async () => (await import('./commands/policy-command.ts')).policyCommand },
  { name: 'diff', load: async () => (await import('./commands/diff-command.ts')).diffCommand },
  { name: 'run', load: async () => (await import('./commands/run-command.ts')).runCommand },
  { name: 'runs', load: async () => (await import('./commands/runs-command.ts')).runsCommand },
  { name: 'inspect', load: async () => (await import('./commands/inspect-command.ts')).inspectCommand },
  { name: 'compare', load: async () => (await import('./commands/compare-command.ts')).compareCommand },
  { name: 'replay', load: async () => (await import('./commands/replay-command.ts')).replayCommand },
  { name: 'events', load: async () => (await import('./commands/events-command.ts')).eventsCommand },
  { name: 'resume', load: async () => (await import('./commands/resume-command.ts')).resumeCommand },
  { name: 'revise', load: async () => (await import('./commands/revise-command.ts')).reviseCommand },
  { name: 'migrate', load: async () => (await import('./commands/migrate-command.ts')).migrateCommand },
  { name: 'fork', load: async () => (await import('./commands/fork-command.ts')).forkCommand },
  { name: 'approve', load: async () => (await import('./commands/task-commands.ts')).approveCommand },
  { name: 'reject', load: async () => (await import('./commands/task-commands.ts')).rejectCommand },
  { name: 'reassign', load: async () => (await import('./commands/task-commands.ts')).reassignCommand },
  { name: 'tasks', load: async () => (await import('./commands/tasks-command.ts')).tasksCommand },
  { name: 'send', load: async () => (await import('./commands/send-command.ts')).sendCommand },
  { name: 'pause', load: async () => (await import('./commands/operator-commands.ts')).pauseCommand },
  { name: 'continue', load: async () => (await import('./commands/operator-commands.ts')).continueCommand },
  { name: 'step', load: async () => (await import('./commands/operator-commands.ts')).stepCommand },
  { name: 'cancel', load: async () => (await import('./commands/operator-commands.ts')).cancelCommand },
  { name: 'retry', load: async () => (await import('./commands/operator-commands.ts')).retryCommand },
  { name: 'skip', load: async () => (await import('./commands/operator-commands.ts')).skipCommand },
  { name: 'resolve', load: async () => (await import('./commands/operator-commands.ts')).resolveCommand },
  { name: 'keep', load: async () => (await import('./commands/operator-commands.ts')).keepCommand },
  { name: 'note', load: async () => (await import('./commands/note-command.ts')).noteCommand },
  { name: 'lesson', load: async () => (await import('./commands/lesson-command.ts')).lessonCommand },
  { name: 'bulk', load: async () => (await import('./commands/bulk-command.ts')).bulkCommand },
  { name: 'trust', load: async () => (await import('./commands/trust-command.ts')).trustCommand },
  { name: 'test', load: async () => (await import('./commands/test-command.ts')).testCommand },
  { name: 'artifact', load: async () => (await import('./commands/artifact-command.ts')).artifactCommand },
  { name: 'store', load: async () => (await import('./commands/store-command.ts')).storeCommand },
  { name: 'gc', load: async () => (await import('./commands/gc-command.ts')).gcCommand },
  { name: 'stats', load: async () => (await import('./commands/stats-command.ts')).statsCommand },
  { name: 'serve', load: async () => (await import('./commands/serve-command.ts')).serveCommand },
  { name: 'worker', load: async () => (await import('./commands/worker-command.ts')).workerCommand },
];
