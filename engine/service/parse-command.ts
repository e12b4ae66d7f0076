// Commands are parsed with their shared/api schema where they enter the service, whoever sends
// them (the CLI, the server, a scenario): a malformed value never reaches the engine or the store.
// The server hands request bodies on unparsed (shared/api/unparsed.ts), so each command is parsed
// once, here.
import type { z } from 'zod';
import { badInput } from '../../shared/api/api-error.ts';
import { Unparsed } from '../../shared/api/unparsed.ts';
import { ServiceError } from './service-error.ts';

/** What a service command takes: a typed value (the CLI, a scenario) or a request's body as it came (the server). */
export type CommandInput<S extends z.ZodType> = z.input<S> | Unparsed<S>;

/**
 * Parses a command at the service boundary: a malformed value is a ServiceError('bad-input')
 * whose path is the field's JSON path (`$.input.amount`), before anything is read or written.
 *
 * @example
 * const a = parseCommand(RunAction, body, 'the action');
 */
export function parseCommand<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value instanceof Unparsed ? value.value : value);
  if (result.success) return result.data;
  const { error } = badInput(result.error, what);
  throw new ServiceError('bad-input', error.message, error.path);
}
