// A request's part as it came over the wire, on its way to the one place that parses it: the
// service. The server hands a command body on as an Unparsed of the route's body schema instead of
// parsing it itself, so each command is parsed once, where it enters the service. The schema is a
// type parameter only: a route whose table body schema is not the one the service parses with is a
// type error where the server calls the service.
import type { z } from 'zod';

/**
 * A value from outside, to be parsed with schema `S` at the service boundary.
 *
 * @example
 * service.act(runId, new Unparsed<typeof RunAction>(request.body)); // parsed once, in the service
 */
export class Unparsed<S extends z.ZodType> {
  /** A private field makes the class nominal: a plain object is never taken for an Unparsed. */
  readonly #value: unknown;
  /** The schema it is to be parsed with (a type only; nothing is stored). */
  declare readonly schema: S;

  constructor(value: unknown) {
    this.#value = value;
  }

  /** The value as it came: unknown until the service parses it. */
  get value(): unknown {
    return this.#value;
  }
}
