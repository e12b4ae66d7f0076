// The `weft` commands that change a store. While `weft serve` owns the store, a terminal's
// command of this list is run by the server (POST /api/cli), since only one engine may drive it.
export const FORWARDED_COMMANDS: ReadonlySet<string> = new Set(['run', 'send', 'approve', 'reject', 'reassign', 'pause', 'cancel', 'retry', 'skip', 'resolve', 'keep', 'revise', 'fork', 'resume', 'continue', 'step']);
