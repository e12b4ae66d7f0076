// What identifies a definition version: its canonical JSON without the editor's `layout` and
// `$schema`, so moving a box or pointing at another schema file does not make a new version.
// Run snapshots (`definitions`) and saved versions (`saved_versions`) are hashed the same way,
// so their hashes compare.
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { canonicalJson, sha256 } from './canonical-json.ts';

export function definitionContent(workflow: Workflow): string {
  const { layout: _layout, $schema: _schema, ...content } = workflow;
  return canonicalJson(content);
}

/** The hash stored with a version: sha256 of definitionContent, as Store.saveDefinition stores it. */
export const definitionHash = (workflow: Workflow): string => sha256(definitionContent(workflow));
