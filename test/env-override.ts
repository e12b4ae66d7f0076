// The one way tests change process.env: set variables and get back the function that puts the
// previous values back (unset stays unset), for afterAll/afterEach or onTestFinished. Where a
// variable is only for a child process, pass it in the child's env instead (runWeft's `env`).

/**
 * Sets (or, with undefined, unsets) variables of this process and returns their restore.
 *
 * @example
 * onTestFinished(overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config') }));
 */
export function overrideEnv(vars: Record<string, string | undefined>): () => void {
  const before: Record<string, string | undefined> = {};
  for (const name of Object.keys(vars)) before[name] = process.env[name];
  apply(vars);
  return () => apply(before);
}

function apply(vars: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
