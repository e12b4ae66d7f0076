import { describe, expect, it } from 'vitest';
import { firstSentence } from '../../renderer/files/template-summary.ts';

describe("a template's one-line summary", () => {
  it('is the first sentence, a dotted name inside it kept whole', () => {
    expect(firstSentence('An agent reads a ticket. Retrying fails.')).toBe('An agent reads a ticket.');
    expect(firstSentence('Waits for the payment.received event (send one). If none arrives it ends.')).toBe('Waits for the payment.received event (send one).');
    expect(firstSentence('plan splits a question: web, papers and forums. The join goes on.')).toBe('plan splits a question: web, papers and forums.');
    expect(firstSentence('No full stop')).toBe('No full stop');
    expect(firstSentence(null)).toBe('');
  });
});
