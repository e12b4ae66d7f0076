// Commands write through this instead of `process`, so tests can run `main` in-process and
// capture output, and the working directory is explicit rather than ambient.

export interface TextSink {
  write(chunk: string): unknown;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Directory that relative paths on the command line are resolved against. */
  cwd: string;
}
