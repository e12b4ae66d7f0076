#!/usr/bin/env node
// Entry point of the `weft` command. It runs the bundle in dist/cli/ (plain JavaScript, built by
// `npm run build` and by `npm install`'s prepare step) while that bundle is fresh: built from the
// sources as they are now. In a checkout whose sources changed since the build it falls back to
// running the TypeScript through tsx (registered with the project's own tsconfig, not whatever
// tsconfig.json sits in the user's current folder), so an edited tree never runs stale code.
// WEFT_FROM_SOURCE=1 forces the tsx path.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundlePath } from './source-stamp.js';

// `weft validate x --json | head -1` closes stdout early; that is not an error worth a stack.
// The rest of the output is dropped and the command still finishes with its own exit code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

const root = fileURLToPath(new URL('..', import.meta.url));

function freshBundle() {
  if (process.env.WEFT_FROM_SOURCE === '1') return undefined;
  const bundle = freshBundlePath(root);
  return bundle === undefined ? undefined : pathToFileURL(bundle);
}

async function loadMain() {
  const bundle = freshBundle();
  // A failure importing the bundle is a broken build, not a user error: let Node print it in full.
  if (bundle !== undefined) return (await import(bundle.href)).main;
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch (error) {
    process.stderr.write(
      `weft: cannot load tsx, which runs weft's TypeScript (${error instanceof Error ? error.message : String(error)}).\n` +
        `Run "npm install" in ${root} and try again.\n`,
    );
    process.exit(2);
  }
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  return (await import('../engine/cli/main.ts')).main;
}

const main = await loadMain();
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});
