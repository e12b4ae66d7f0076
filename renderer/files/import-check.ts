// An imported file's text checked before it is sent: every reason it is not a workflow, each placed
// in the text, rather than the server's first one. The same parser as the server's (shared/), so
// a file this passes is one the server takes the shape of.
import type { SourceFinding } from '../../shared/api/workflow-views.ts';
import { locateFinding } from '../../shared/definition/json-path-locator.ts';
import { parseDefinitionText } from '../../shared/validator/parse-definition.ts';

/** The file's findings when it is not a workflow; null when it is one. */
export function importFindings(text: string): SourceFinding[] | null {
  const parsed = parseDefinitionText(text);
  if (parsed.ok) return null;
  return parsed.diagnostics.map((diagnostic) => ({ diagnostic, at: locateFinding(text, diagnostic) ?? null }));
}
