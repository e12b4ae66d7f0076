// An in-memory CliIo for running `main` in-process.
import type { CliIo } from '../../engine/cli/cli-io.ts';
import { main } from '../../engine/cli/main.ts';

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

export function captureIo(cwd: string): CapturedIo {
  let stdout = '';
  let stderr = '';
  return {
    cwd,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    out: () => stdout,
    err: () => stderr,
  };
}

/** `weft ARGS` through main() in this process (the code bin/weft.js runs), without a child's start-up cost. */
export async function weftInProcess(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo(cwd);
  const code = await main(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
