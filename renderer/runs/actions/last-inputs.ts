// The input a workflow was last started with in this browser, offered again by the start form.
import { findJsonProblem, type JsonValue } from '../../../shared/api/json-value.ts';

const PREFIX = 'weft.lastInput.';

export function lastStartInput(workflowId: string, storage: Storage = window.localStorage): JsonValue | undefined {
  const text = storage.getItem(PREFIX + workflowId);
  if (text === null) return undefined;
  try {
    const value: JsonValue = JSON.parse(text);
    return findJsonProblem(value) === undefined ? value : undefined;
  } catch {
    // Written by another version of the app, or by hand: not worth an error.
    return undefined;
  }
}

export function rememberStartInput(workflowId: string, input: JsonValue, storage: Storage = window.localStorage): void {
  try {
    storage.setItem(PREFIX + workflowId, JSON.stringify(input));
  } catch {
    // A full storage only loses the convenience.
  }
}

export function forgetStartInput(workflowId: string, storage: Storage = window.localStorage): void {
  storage.removeItem(PREFIX + workflowId);
}
