// Attempt error codes are one list in shared/ and one table in docs/engine.md; the two must agree,
// and a producer cannot invent a code the list does not have (checked by the type checker below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_ERROR_CODES,
  ATTEMPT_ERROR_CODE_PATTERNS,
  attemptErrorCode,
  type AttemptErrorCode,
} from '../../shared/events/attempt-error-codes.ts';
import type { AttemptResult } from '../../engine/executors/executor.ts';
import { parseEventData, type EventData } from '../../shared/events/run-event.ts';

const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'engine.md'), 'utf8');

/** The rows of the table under "### Attempt error codes": [code, when, retryable]. */
function tableRows(): string[][] {
  const start = docs.indexOf('### Attempt error codes');
  expect(start, 'docs/engine.md has a "### Attempt error codes" section').toBeGreaterThan(-1);
  const rest = docs.slice(start).split('\n').slice(1);
  const table = rest.slice(rest.findIndex((l) => l.startsWith('|')));
  const lines = table.slice(0, table.findIndex((l) => !l.startsWith('|')));
  return lines.slice(2).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
}

describe('attempt error codes', () => {
  it('the docs table lists exactly the codes of the union, each once', () => {
    const documented = tableRows().map((r) => /^`([^`]+)`$/.exec(r[0] ?? '')?.[1] ?? `not a code: ${r[0]}`);
    expect([...documented].sort()).toEqual([...ATTEMPT_ERROR_CODES, ...ATTEMPT_ERROR_CODE_PATTERNS].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('each row says when the code happens and whether it is retryable by default', () => {
    for (const [code, when, retryable] of tableRows()) {
      expect(when, `${code}: when`).not.toBe('');
      expect(['yes', 'no', 'varies'], `${code}: retryable`).toContain(retryable);
    }
  });

  it('a code from outside the engine (a script, exitCodes, a scenario) is kept as written', () => {
    expect(attemptErrorCode('timeout')).toBe('timeout');
    expect(attemptErrorCode('card_declined')).toBe('card_declined');
  });

  it('a producer cannot use a code that is not in the list', () => {
    const known: AttemptErrorCode = 'acceptance_not_met';
    const pattern: AttemptErrorCode = 'http_503';
    // @ts-expect-error a misspelt code does not type-check: add new codes to ATTEMPT_ERROR_CODES
    const misspelt: AttemptErrorCode = 'timout';
    // @ts-expect-error nor does an executor result with an unlisted code
    const result: AttemptResult = { outcome: 'failed', code: 'made_up', message: 'x' };
    expect([known, pattern, misspelt, result.outcome]).toHaveLength(4);
  });

  it('an event the engine writes carries a listed code; a stored event parses with any string code', () => {
    // @ts-expect-error the engine cannot emit attempt_failed with an unlisted code
    const emitted: EventData<'attempt_failed'> = { error: { code: 'timout', message: 'x' }, retryable: true };
    expect(emitted.retryable).toBe(true);
    const stored = { error: { code: 'card_declined', message: 'declined' }, retryable: false };
    expect(parseEventData('attempt_failed', stored, 'run r1 seq 4').error.code).toBe('card_declined');
    expect(() => parseEventData('attempt_failed', { error: { code: 7, message: 'x' }, retryable: false }, 'run r1 seq 4')).toThrow(
      /run r1 seq 4: attempt_failed event data does not match its schema: an error code must be a string/,
    );
  });
});
