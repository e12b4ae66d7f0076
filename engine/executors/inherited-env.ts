// The environment a command or script starts with. Only a few variables that programs need to
// work at all are inherited from the engine; everything else in the engine's environment (API keys
// of LLM providers, tokens, cloud credentials) stays out, so a workflow cannot read secrets it was
// never given. A command gets more only through its own `config.env`.

/** Variables passed through from the engine's environment, when set. */
const INHERITED_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT'] as const;

/**
 * Picks the inherited variables out of `source`. On Windows, names are case-insensitive
 * (`Path`, `SystemRoot`), so they are matched that way there.
 *
 * @example
 * inheritedEnv({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-…' }) // { PATH: '/usr/bin' }
 */
export function inheritedEnv(
  source: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  const keys = Object.keys(source);
  for (const name of INHERITED_ENV_NAMES) {
    const key = platform === 'win32' ? keys.find((k) => k.toUpperCase() === name) : name;
    const value = key === undefined ? undefined : source[key];
    if (key !== undefined && value !== undefined) env[key] = value;
  }
  return env;
}
