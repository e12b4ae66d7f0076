// Disk → diagnostics for one workflow file. The file's size is checked before anything is read
// (a stray 5 GB log must not be pulled into memory), then the bytes are decoded as strict UTF-8
// and handed to the pure validator. Contents problems are diagnostics; not reaching the file at
// all is a DefinitionFileError, which the CLI reports as an I/O error (exit 2).
import { open, stat } from 'node:fs/promises';
import type { Diagnostic } from '../../shared/validator/diagnostic.ts';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';
import { decodeDefinitionBytes } from './decode-definition-bytes.ts';
import { definitionFileError, definitionFileErrorFrom } from './definition-file-error.ts';

/** Largest definition file accepted: far above any real workflow, far below memory trouble. */
export const MAX_DEFINITION_BYTES = 16 * 1024 * 1024;

/** What the validator found, and the file's text when it could be decoded (what `weft run` sends a server). */
export type LoadedDefinition = ReturnType<typeof validateDefinitionText> & { text?: string };

export interface LoadOptions {
  /** Size limit in bytes; MAX_DEFINITION_BYTES unless a test needs a small one. */
  maxBytes?: number;
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads, decodes, parses and validates one definition file.
 * Throws DefinitionFileError when the file cannot be read (missing, no permission, a folder…).
 *
 * @example
 * const { workflow, diagnostics } = await loadDefinitionFile('flows/order.weft.json');
 */
export async function loadDefinitionFile(path: string, options: LoadOptions = {}): Promise<LoadedDefinition> {
  const maxBytes = options.maxBytes ?? MAX_DEFINITION_BYTES;
  const stats = await stat(path).catch((error: unknown) => {
    throw definitionFileErrorFrom(path, error);
  });
  if (stats.isDirectory()) throw definitionFileError(path, 'EISDIR');
  // Only a regular file: opening a FIFO with no writer waits for ever, and a device has no end.
  if (stats.isFIFO()) throw definitionFileError(path, 'FIFO');
  if (!stats.isFile()) throw definitionFileError(path, 'not-a-file');
  if (stats.size > maxBytes) return { diagnostics: [tooLarge(stats.size, maxBytes)] };
  const bytes = await readAtMost(path, maxBytes + 1);
  // The file grew since stat: still refuse it rather than read without end.
  if (bytes.length > maxBytes) return { diagnostics: [tooLarge(undefined, maxBytes)] };
  const decoded = decodeDefinitionBytes(bytes);
  if (!decoded.ok) return { diagnostics: [decoded.diagnostic] };
  return { ...validateDefinitionText(decoded.text), text: decoded.text };
}

/** Reads up to `limit` bytes, in chunks, so no single allocation exceeds what the file holds. */
async function readAtMost(path: string, limit: number): Promise<Uint8Array> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw definitionFileErrorFrom(path, error);
  });
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < limit) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw definitionFileErrorFrom(path, error);
  } finally {
    await handle.close();
  }
}

function tooLarge(size: number | undefined, limit: number): Diagnostic {
  const actual = size === undefined ? `more than ${formatBytes(limit)}` : `${formatBytes(size)} (${size.toLocaleString('en-US')} bytes)`;
  return {
    code: 'file-too-large',
    severity: 'error',
    path: '$',
    message: `the file is ${actual}; the limit for a workflow definition is ${formatBytes(limit)}, so it was not read`,
    hint: 'real workflow files are a few hundred KiB at most: check that this is the right file, and keep bulky data out of the definition: pass it as run input instead',
  };
}

function formatBytes(n: number): string {
  const mib = n / (1024 * 1024);
  if (mib >= 1) return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
  return n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}
