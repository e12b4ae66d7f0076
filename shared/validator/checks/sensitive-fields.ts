// Sensitive values (docs/long-running.md): the `x-weft-sensitive` mark of an output schema must be
// `true` where the engine looks for it, and only steps that keep what they read out of the log may
// declare `readsSensitive`: a person's task, a child run's input or a timer would write the value
// into events, so those kinds get the redacted reference instead.
import { SENSITIVE_MARK } from '../../artifacts/sensitive-fields.ts';
import type { StepKind } from '../../definition/names.ts';
import type { ValidationContext } from '../validation-context.ts';

/** The kinds that may read sensitive values: their executor gets the value, the log only the reference. */
export const READS_SENSITIVE_KINDS: readonly StepKind[] = ['agent', 'script', 'command', 'http', 'transform'];

/** Where the engine follows a schema to find marks; a mark elsewhere would do nothing. */
const FOLLOWED = new Set(['properties', 'items', 'additionalProperties']);

export function checkSensitiveFields(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.readsSensitive === true && !READS_SENSITIVE_KINDS.includes(step.kind)) {
      ctx.atStep(v, ['readsSensitive'], {
        code: 'reads-sensitive-kind',
        message: `"${step.id}" is a ${step.kind} step, which cannot read sensitive values: what it reads would be written into the run's events`,
        hint: `remove readsSensitive (the step then gets the redacted reference), or read the value in a ${READS_SENSITIVE_KINDS.join(', ')} step`,
      });
    }
    if (step.output !== undefined) marks(step.output, ['output'], true, (path, message) => ctx.atStep(v, path, { code: 'invalid-sensitive-mark', message: `the output schema of "${step.id}" ${message}`, hint: `mark a property, array items or additionalProperties with "${SENSITIVE_MARK}": true (docs/long-running.md)` }));
  }
}

/** Reports marks that are not `true`, or that sit where the engine does not look. */
function marks(schema: unknown, path: PropertyKey[], followed: boolean, report: (path: PropertyKey[], message: string) => void): void {
  if (schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => marks(s, [...path, i], false, report));
    return;
  }
  const s = schema as Record<string, unknown>;
  if (Object.hasOwn(s, SENSITIVE_MARK)) {
    if (s[SENSITIVE_MARK] !== true && s[SENSITIVE_MARK] !== false) report([...path, SENSITIVE_MARK], `has "${SENSITIVE_MARK}": ${JSON.stringify(s[SENSITIVE_MARK])}; it takes true or false`);
    else if (s[SENSITIVE_MARK] === true && !followed) report([...path, SENSITIVE_MARK], `marks a place the engine does not follow (inside ${String(path[path.length - 2] ?? path[path.length - 1])}): the value would be logged as it is`);
  }
  for (const [k, sub] of Object.entries(s)) {
    if (k === 'properties' && sub !== null && typeof sub === 'object' && !Array.isArray(sub)) {
      for (const [name, p] of Object.entries(sub)) marks(p, [...path, k, name], followed, report);
    } else if (FOLLOWED.has(k)) marks(sub, [...path, k], followed, report);
    else if (sub !== null && typeof sub === 'object') marks(sub, [...path, k], false, report);
  }
}
