#!/usr/bin/env node
// Entry point of the `weft` command. The engine is TypeScript run through tsx, so this stays
// plain JavaScript: register tsx with the project's own tsconfig (not whatever tsconfig.json
// sits in the user's current folder), then hand the arguments to engine/cli/main.ts.
import { fileURLToPath } from 'node:url';

// `weft validate x --json | head -1` closes stdout early; that is not an error worth a stack.
// The rest of the output is dropped and the command still finishes with its own exit code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch (error) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(
    `weft: cannot load tsx, which runs weft's TypeScript (${error instanceof Error ? error.message : String(error)}).\n` +
      `Run "npm install" in ${root} and try again.\n`,
  );
  process.exit(2);
}
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
// A failure here is a broken install or a bug, not a user error: let Node print it in full.
const { main } = await import('../engine/cli/main.ts');

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});
