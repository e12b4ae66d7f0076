// What the new-workflow dialog shows of a template at a glance: its description's first sentence
// (the rest is on hover), so a list of examples can be scanned rather than read.

/** The first sentence of a description: up to a full stop followed by a space and a capital letter, or the end. */
export function firstSentence(description: string | null): string {
  if (description === null) return '';
  const text = description.trim();
  const end = /[.!?](?=\s+[A-Z`(])/.exec(text);
  return end === null ? text : text.slice(0, end.index + 1);
}
