// `weft run --break STEP` and `--pin STEP=@file.json` (or `STEP=JSON`): the debug settings of a
// run, read from the command line. Which steps exist, and whether a pinned output matches its
// step's schema, the service checks (engine/service/debug-settings.ts); here only the syntax and
// the files, each problem naming its flag.
import type { StartRunDebug } from '../../shared/api/start-run-command.ts';
import type { JsonValue } from '../../shared/api/json-value.ts';
import { STEP_ID_PATTERN } from '../../shared/definition/names.ts';
import { readRunInput } from './run-input.ts';
import { InputError } from './input-error.ts';

/**
 * The debug settings the flags give, or undefined when there are none (a normal run).
 *
 * @example debugFlags(['draft'], ['research=@notes.json'], cwd) // { breakpoints: ['draft'], pins: { research: … } }
 */
export function debugFlags(breaks: readonly string[] | undefined, pinFlags: readonly string[] | undefined, cwd: string): StartRunDebug | undefined {
  const breakpoints = (breaks ?? []).map((b) => {
    if (!STEP_ID_PATTERN.test(b)) throw new InputError(`--break "${b}" is not a step id; give --break STEP, once per step`);
    return b;
  });
  const pins: Record<string, JsonValue> = {};
  for (const flag of pinFlags ?? []) {
    const eq = flag.indexOf('=');
    const step = eq < 0 ? flag : flag.slice(0, eq);
    if (eq < 0 || !STEP_ID_PATTERN.test(step)) throw new InputError(`--pin "${flag.slice(0, 60)}" is not STEP=@file.json or STEP=JSON; for example --pin research=@notes.json`);
    if (Object.hasOwn(pins, step)) throw new InputError(`--pin names "${step}" twice; give one pinned output per step`);
    pins[step] = readRunInput(flag.slice(eq + 1), cwd, `--pin ${step}`);
  }
  if (breakpoints.length === 0 && Object.keys(pins).length === 0) return undefined;
  return { breakpoints, pins };
}
