// The web worker behind validation-store.ts: runs the shared validator off the main thread, so
// typing and dragging never wait for it. One set of parse caches lives as long as the worker:
// re-checking a large workflow after one edit re-parses only the expressions and schemas that
// changed. The document arrives as a change against the previous one (doc-delta.ts).
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import type { Policy } from '../../../shared/policy/policy-schema.ts';
import { createValidatorCaches } from '../../../shared/validator/validate-workflow.ts';
import { checkDefinition, validatorFailure } from './check-definition.ts';
import { applyDelta, type DocDelta } from './doc-delta.ts';

export interface ValidationRequest {
  id: number;
  /** The editor's document (possibly shape-invalid), as a change against the document of the previous request. */
  change: DocDelta;
  /** The workspace policy to check against from this request on (absent: the one sent before; null: none). */
  policy?: Policy | null;
}

export interface ValidationResponse {
  id: number;
  diagnostics: Diagnostic[];
  /** Time spent in the validator, in milliseconds. */
  ms: number;
  /** The change did not fit the worker's previous document: send the next one whole. */
  resync?: true;
}

const caches = createValidatorCaches();
let previous: Record<string, unknown> | null = null;
let policy: Policy | null = null;

self.onmessage = (message: MessageEvent<ValidationRequest>) => {
  const { id, change } = message.data;
  if (message.data.policy !== undefined) policy = message.data.policy;
  const start = performance.now();
  let definition: Record<string, unknown>;
  try {
    definition = applyDelta(change, previous);
  } catch (error) {
    previous = null;
    const response: ValidationResponse = { id, diagnostics: [validatorFailure(error)], ms: 0, resync: true };
    self.postMessage(response);
    return;
  }
  previous = definition;
  let diagnostics: Diagnostic[];
  try {
    diagnostics = checkDefinition(definition, caches, policy);
  } catch (error) {
    diagnostics = [validatorFailure(error)];
  }
  const response: ValidationResponse = { id, diagnostics, ms: performance.now() - start };
  self.postMessage(response);
};
