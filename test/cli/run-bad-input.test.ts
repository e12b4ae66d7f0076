// Bad input to the run commands through main() in-process: every case gets a clear error, exit 2,
// and leaves the store intact (the cases: run-bad-input.ts; run-cli.test.ts runs the first of each
// through the real binary).
import { weftInProcess } from './capture-io.ts';
import { runBadInputTests } from './run-bad-input.ts';

runBadInputTests((args, cwd) => weftInProcess(args, cwd));
