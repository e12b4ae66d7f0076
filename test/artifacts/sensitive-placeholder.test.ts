// The placeholder a scenario scripts where a run had a sensitive value (docs/scenarios.md,
// "Sensitive values"): the output contract accepts it only at a place marked sensitive, and other
// violations of the same output are still reported; an expectation of it matches a redacted
// reference and nothing else; a run's redacted references all become it.
import { describe, expect, it } from 'vitest';
import { alignRedacted, placeholderPointers, SENSITIVE_PLACEHOLDER, withPlaceholders } from '../../shared/artifacts/sensitive-placeholder.ts';
import { sensitivePaths } from '../../shared/artifacts/sensitive-fields.ts';
import { outputViolations } from '../../engine/runtime/output-contract.ts';
import { assertion } from '../../engine/scenario/assertion-result.ts';
import type { Step } from '../../shared/definition/workflow-schema.ts';

const REF = { $artifact: { sha256: 'a'.repeat(64), size: 26, mediaType: 'application/json', sensitive: true as const } };
const LARGE = { $artifact: { sha256: 'b'.repeat(64), size: 9_000_000, mediaType: 'application/json' } };

const step = {
  id: 'lookup', kind: 'script', config: { module: 'vault.mjs' },
  output: {
    type: 'object', required: ['holder', 'iban', 'pins', 'keys'],
    properties: {
      holder: { type: 'string', minLength: 2 },
      iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}', 'x-weft-sensitive': true },
      pins: { type: 'array', items: { type: 'integer', 'x-weft-sensitive': true } },
      keys: { type: 'object', properties: { 'a/b': { type: 'number', 'x-weft-sensitive': true } } },
    },
  },
} as unknown as Step;

describe('the output contract and the placeholder', () => {
  it('accepts the placeholder at each place marked sensitive, whatever its type there', () => {
    const output = { holder: 'Ann', iban: SENSITIVE_PLACEHOLDER, pins: [1234, SENSITIVE_PLACEHOLDER], keys: { 'a/b': SENSITIVE_PLACEHOLDER } };
    expect(placeholderPointers(output, sensitivePaths(step.output))).toEqual(['/iban', '/pins/1', '/keys/a~1b']);
    expect(outputViolations(step, output)).toBeUndefined();
  });

  it('still reports every other violation of an output that holds it', () => {
    const output = { holder: 'A', iban: SENSITIVE_PLACEHOLDER, pins: [SENSITIVE_PLACEHOLDER], keys: {} };
    expect(outputViolations(step, output)).toBe('/holder must NOT have fewer than 2 characters');
  });

  it('refuses it at a place not marked sensitive, and refuses another text at a sensitive place', () => {
    expect(outputViolations(step, { holder: 'Ann', iban: 'DE89', pins: [], keys: {}, extra: 1 })).toBeUndefined();
    expect(outputViolations(step, { holder: 'Ann', iban: '<sensitive>', pins: [], keys: {} })).toBe('/iban must match pattern "^[A-Z]{2}[0-9]{2}"');
    const plain = { ...step, output: { type: 'object', properties: { holder: { type: 'integer' } } } } as unknown as Step;
    expect(outputViolations(plain, { holder: SENSITIVE_PLACEHOLDER })).toBe('/holder must be integer');
  });
});

describe('a scenario made from a run', () => {
  it('holds the placeholder for every redacted reference, and keeps a large value\'s reference', () => {
    expect(withPlaceholders({ a: REF, b: [REF, { c: REF }], big: LARGE, n: 3 })).toEqual({ a: SENSITIVE_PLACEHOLDER, b: [SENSITIVE_PLACEHOLDER, { c: SENSITIVE_PLACEHOLDER }], big: LARGE, n: 3 });
  });

  it('expects the placeholder: a redacted reference matches, a value or a large reference does not', () => {
    const want = { body: { token: SENSITIVE_PLACEHOLDER, id: 'A17' } };
    expect(assertion('output', want, { body: { token: REF, id: 'A17' } }).ok).toBe(true);
    expect(assertion('output', want, { body: { token: 'pt_123', id: 'A17' } }).ok).toBe(false);
    expect(assertion('output', want, { body: { token: LARGE, id: 'A17' } }).ok).toBe(false);
    expect(assertion('output', want, { body: { token: REF, id: 'B2' } }).ok).toBe(false);
    expect(assertion('output', want, { body: { id: 'A17' } }).ok).toBe(false);
    expect(alignRedacted([SENSITIVE_PLACEHOLDER], [REF, REF])).toEqual([SENSITIVE_PLACEHOLDER, REF]);
  });
});
