// Where the workflow templates are: the examples/ folder of the Weft Studio checkout, seen from
// this file under tsx (engine/server/) or from the bundled CLI (dist/cli/): two folders up either way.
import { fileURLToPath } from 'node:url';

export function builtinTemplatesDir(): string {
  return fileURLToPath(new URL('../../examples/', import.meta.url));
}
