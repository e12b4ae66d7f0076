// The web worker behind validation-store.ts: runs the shared validator off the main thread, so
// typing and dragging never wait for it. One set of parse caches lives as long as the worker:
// re-checking a large workflow after one edit re-parses only the expressions and schemas that
// changed.
import type { Diagnostic } from '../../../shared/validator/diagnostic.ts';
import { createValidatorCaches } from '../../../shared/validator/validate-workflow.ts';
import { checkDefinition, validatorFailure } from './check-definition.ts';

export interface ValidationRequest {
  id: number;
  /** The editor's document, possibly shape-invalid. */
  definition: unknown;
}

export interface ValidationResponse {
  id: number;
  diagnostics: Diagnostic[];
  /** Time spent in the validator, in milliseconds. */
  ms: number;
}

const caches = createValidatorCaches();

self.onmessage = (message: MessageEvent<ValidationRequest>) => {
  const { id, definition } = message.data;
  const start = performance.now();
  let diagnostics: Diagnostic[];
  try {
    diagnostics = checkDefinition(definition, caches);
  } catch (error) {
    diagnostics = [validatorFailure(error)];
  }
  const response: ValidationResponse = { id, diagnostics, ms: performance.now() - start };
  self.postMessage(response);
};
