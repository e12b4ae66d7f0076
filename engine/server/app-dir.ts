// Where the built app is: dist/app of the Weft Studio folder, seen from this file under tsx
// (engine/server/) or from the bundled CLI (dist/cli/).
import { fileURLToPath } from 'node:url';

export function builtAppDir(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist/app/' : '../app/', import.meta.url));
}
