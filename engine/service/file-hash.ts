// The hash the editor holds of a workflow file it loaded and sends back when saving, so a save
// over a file changed on disk meanwhile is refused instead of losing the other change.
import { createHash } from 'node:crypto';

/** sha256 of a file's bytes, hex: what the editor sends back as `expectedHash`. */
export const fileHash = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
