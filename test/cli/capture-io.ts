// An in-memory CliIo for running `main` in-process.
import type { CliIo } from '../../engine/cli/cli-io.ts';

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
