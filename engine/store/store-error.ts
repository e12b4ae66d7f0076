// Errors about the store that a user can act on: what is wrong with which file, and what to do.
// The CLI prints the message and exits 2; nothing about them is a bug.

export class StoreError extends Error {
  constructor(
    readonly code:
      | 'not-a-database'
      | 'not-a-store'
      | 'no-store'
      | 'newer-schema'
      | 'older-schema'
      | 'damaged'
      | 'definition-conflict'
      | 'unknown-run'
      | 'locked'
      | 'lease-lost'
      | 'io'
      | 'bad-input'
      | 'refused',
    message: string,
    /** The command field the error is about (`choice`, `reason`), so a front end can name its own flag or JSON path. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
