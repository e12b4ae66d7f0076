// `{{ expression }}` placeholders inside text templates (prompts, URLs, instructions).

export interface Placeholder {
  expression: string;
  /** Offset of the expression's first character inside the template. */
  offset: number;
}

export function placeholdersOf(template: string): Placeholder[] {
  const out: Placeholder[] = [];
  const re = /\{\{([\s\S]*?)\}\}/g;
  for (let m = re.exec(template); m !== null; m = re.exec(template)) {
    const raw = m[1] ?? '';
    const lead = raw.length - raw.trimStart().length;
    out.push({ expression: raw.trim(), offset: m.index + 2 + lead });
  }
  return out;
}
