// A workspace policy file that is there but cannot be read or is not valid: its own small module,
// so the service's error mapping (service-error.ts, in every CLI command's chunk) does not pull the
// policy's schema and parser into the CLI's entry.

export class PolicyFileError extends Error {
  override readonly name = 'PolicyFileError';

  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}
