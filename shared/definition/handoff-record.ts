// A handoff record: what a step hands the step after it (docs/long-running.md, "Handoff records").
// A step that declares `handoff: true` gives one as the `handoff` key of its output, so it is
// evidence like the rest of the output and its contract is checked like any output schema (a
// missing or malformed record is `invalid_output`). A step that declares `handoffFrom: "<id>"`
// receives that step's record as the `handoff` key of its resolved input. This file is the one
// home of the record's shape: the zod schema, the JSON Schema the engine and the validator merge
// into a giving step's output contract, and that merge.
import { z } from 'zod';
import { StepId } from './step-common.ts';

/** The key of a giving step's output, and of a receiving step's input, that holds the record. */
export const HANDOFF_KEY = 'handoff';

/** What a record refers to: a URL or a note as text, or a titled link, optionally to a step of the run. */
export const HandoffRef = z.union([
  z.string().min(1),
  z.strictObject({
    title: z.string().min(1).describe('what the reference is'),
    url: z.string().min(1).optional().describe('where it is (a URL or a path)'),
    step: StepId.optional().describe('the step of this run whose result it is'),
  }),
]);
export type HandoffRef = z.infer<typeof HandoffRef>;

/**
 * The record itself: what was completed, what the receiving step must do, the constraints that
 * apply, and references to what the giving step used.
 *
 * @example
 * HandoffRecord.parse({ completed: ['collected 2 sources'], next: 'draft the article', constraints: ['cite every claim'], refs: [{ title: 'RFC 9110', url: 'https://www.rfc-editor.org/rfc/rfc9110' }] });
 */
export const HandoffRecord = z.strictObject({
  completed: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).describe('what the giving step completed'),
  next: z.string().min(1).describe('what the receiving step must do'),
  constraints: z.array(z.string().min(1)).optional().describe('rules the receiving step must keep'),
  refs: z.array(HandoffRef).optional().describe('what the giving step used: sources, documents, steps'),
});
export type HandoffRecord = z.infer<typeof HandoffRecord>;

let jsonSchema: Record<string, unknown> | undefined;

/** The record's JSON Schema (2020-12), made from the zod schema on first use. */
export function handoffJsonSchema(): Record<string, unknown> {
  if (jsonSchema === undefined) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(HandoffRecord, { io: 'input' });
    jsonSchema = rest;
  }
  return jsonSchema;
}

/** The fields of a step that this file reads (any kind's step has them). */
interface HandoffFields {
  output?: Record<string, unknown> | undefined;
  handoff?: boolean | undefined;
}

const contracts = new WeakMap<object, Record<string, unknown>>();

/**
 * The schema a step's output must satisfy: its own `output` schema, with, for a step that gives a
 * handoff, the record required under `handoff` (an output that must be an object). The same
 * object is returned for the same step, so compiled validators are shared.
 *
 * @example
 * outputContractOf({ handoff: true, output: { type: 'object', properties: { summary: { type: 'string' } } } });
 * // { type: 'object', properties: { summary: …, handoff: <the record> }, required: ['handoff'] }
 */
export function outputContractOf(step: HandoffFields): Record<string, unknown> | undefined {
  if (step.handoff !== true) return step.output;
  const hit = contracts.get(step);
  if (hit !== undefined) return hit;
  const base: Record<string, unknown> = step.output ?? {};
  const properties = isRecord(base.properties) ? base.properties : {};
  const own = properties[HANDOFF_KEY];
  const required = Array.isArray(base.required) ? base.required.filter((r) => r !== HANDOFF_KEY) : [];
  const contract = {
    ...base,
    type: base.type ?? 'object',
    properties: { ...properties, [HANDOFF_KEY]: own === undefined ? handoffJsonSchema() : { allOf: [own, handoffJsonSchema()] } },
    required: [...required, HANDOFF_KEY],
  };
  contracts.set(step, contract);
  return contract;
}

/**
 * The record in a value (a giving step's output, a receiving step's input), when it holds a valid one.
 *
 * @example
 * handoffIn({ summary: '…', handoff: { completed: 'research', next: 'draft' } }) // { completed: 'research', next: 'draft' }
 * handoffIn('text') // undefined
 */
export function handoffIn(value: unknown): HandoffRecord | undefined {
  if (!isRecord(value)) return undefined;
  const parsed = HandoffRecord.safeParse(value[HANDOFF_KEY]);
  return parsed.success ? parsed.data : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
