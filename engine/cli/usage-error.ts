// Bad command-line arguments. main prints the message and the command's usage (exit 2), and
// never a stack trace: the user typed something wrong, the program did not break.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
