// The workflow of the debug-run tests (debug-cli.test.ts through the binary, debug-flags.test.ts
// in-process) and the refusals of bad debug flags that both check: a command step appends to a
// file each time it is called, so a pinned step's calls are counted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes debug-flow.weft.json, notes.json and bad-notes.json into `dir`; the workflow's path. */
export function writeDebugFlow(dir: string, calls: string): string {
  const file = join(dir, 'debug-flow.weft.json');
  writeFileSync(file, JSON.stringify({
    format: 'weft/v1',
    id: 'debug-flow',
    version: 1,
    name: 'Debug flow',
    steps: [
      {
        id: 'research',
        kind: 'command',
        config: { argv: ['sh', '-c', `echo research >> "$OUT"; echo '{"notes":["real"]}'`], env: { OUT: calls } },
        output: { type: 'object', required: ['notes'], properties: { notes: { type: 'array', items: { type: 'string' } } } },
      },
      { id: 'draft', kind: 'transform', config: { expression: '{"text": $join(steps.research.output.notes, ", ")}' } },
      { id: 'review', kind: 'transform', config: { expression: 'steps.draft.output' } },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'research', to: 'draft' },
      { id: 'e2', from: 'draft', to: 'review' },
      { id: 'e3', from: 'review', to: 'done' },
    ],
  }, null, 2));
  writeFileSync(join(dir, 'notes.json'), '{"notes":["pinned","notes"]}');
  writeFileSync(join(dir, 'bad-notes.json'), '{"notes":"not a list"}');
  return file;
}

/** Bad debug flags of `weft run FILE`: each exits 2 with one line matching, and makes no store. */
export const BAD_DEBUG_FLAGS: readonly [string, string[], RegExp][] = [
  ['a breakpoint on no step', ['--break', 'nope'], /^weft run: the breakpoint "nope" names no step of workflow "debug-flow"; its steps are research, draft, review, done; nothing was run \(--break\)\n$/],
  ['a breakpoint that is not a step id', ['--break', 'a b'], /^weft run: --break "a b" is not a step id; give --break STEP, once per step\n/],
  ['a pin on no step', ['--pin', 'ghost={}'], /^weft run: the pin "ghost" names no step of workflow "debug-flow"; .* \(--pin\)\n$/],
  ['a pin without =', ['--pin', 'research'], /^weft run: --pin "research" is not STEP=@file.json or STEP=JSON; for example --pin research=@notes.json\n$/],
  ['a pin file that is missing', ['--pin', 'research=@missing.json'], /^weft run: --pin research: cannot read the input file .*missing\.json: ENOENT\n$/],
  ['a pin that is not JSON', ['--pin', 'research={notes'], /^weft run: --pin research is not valid JSON at line 1, column 2: /],
  ['a pinned output that fails the schema', ['--pin', 'research=@bad-notes.json'], /^weft run: the pinned output of "research" does not match its output schema: .*; nothing was run \(--pin\)\n$/],
  ['a pin on the end step', ['--pin', 'done={}'], /on an end step/],
  ['a step pinned twice', ['--pin', 'research={"notes":[]}', '--pin', 'research={"notes":[]}'], /--pin names "research" twice/],
];
