// The error codes an attempt can end with. One list, documented in docs/engine.md ("Attempt error
// codes", a test keeps the two equal), so `retry.nonRetryable`, scenarios and the UI can rely on
// them. A producer's code is typed `AttemptErrorCode`: a new code does not compile until it is
// added here (and to the docs table).
import { z } from 'zod';

/** Codes the engine and its executors produce by name. */
export const ATTEMPT_ERROR_CODES = [
  // the engine
  'timeout',
  'interrupted',
  'input_error',
  'expression_error',
  'unsupported_kind',
  'executor_error',
  'invalid_output',
  'acceptance_not_met',
  'unknown',
  // people and deadlines
  'rejected',
  'expired',
  // child runs (subworkflow, map)
  'workflow_not_found',
  'untrusted_workspace',
  'policy_refused',
  'invalid_items',
  'invalid_input',
  'item_failed',
  // every executor
  'aborted',
  'invalid_config',
  'invalid_partial',
  // command
  'spawn_failed',
  'killed_by_signal',
  'output_too_large',
  'invalid_json_output',
  // script
  'script_not_found',
  'script_load_failed',
  'export_not_found',
  'output_not_serialisable',
  'script_error',
  'script_crashed',
  // http
  'invalid_url',
  'invalid_header',
  'invalid_body',
  'invalid_response',
  'response_too_large',
  'connection_failed',
  'connection_lost',
  // agent
  'missing_api_key',
  'invalid_api_key',
  'rate_limited',
  'provider_unavailable',
  'auth_failed',
  'bad_request',
  'malformed_reply',
  'reply_too_large',
  'model_refused',
  'invalid_json_reply',
  'agent_error',
  // agent candidates (docs/routing.md)
  'low_confidence',
  'no_candidate',
  // scenarios (weft test)
  'no_scripted_case',
] as const;
export type EngineErrorCode = (typeof ATTEMPT_ERROR_CODES)[number];

/** Codes built from a value, as the docs table writes them; `PatternErrorCode` is their type. */
export const ATTEMPT_ERROR_CODE_PATTERNS = ['http_<status>', 'exit_<code>', 'child_<state>'] as const;
export type PatternErrorCode = `http_${number}` | `exit_${number}` | `child_${string}`;

/**
 * A code chosen by the workflow's author, not the engine: a script's thrown `error.code`, a
 * command's `exitCodes` mapping, a scenario's scripted `fail`. Branded so that only a parse (at
 * the boundary where the text comes in) makes one, never a string literal in engine code.
 */
export const AuthorErrorCode = z.string().brand<'AuthorErrorCode'>();
export type AuthorErrorCode = z.infer<typeof AuthorErrorCode>;

/** Every code an attempt can end with. */
export type AttemptErrorCode = EngineErrorCode | PatternErrorCode | AuthorErrorCode;

/**
 * The code of text that comes from outside the engine's own code (a script runner's message, a
 * definition's `exitCodes`, a scenario): a listed code when it is one, else the author's own.
 *
 * @example
 * attemptErrorCode('timeout'); // 'timeout' (an EngineErrorCode)
 * attemptErrorCode('card_declined'); // 'card_declined' (an AuthorErrorCode)
 */
export function attemptErrorCode(text: string): AttemptErrorCode {
  return ATTEMPT_ERROR_CODES.find((c) => c === text) ?? AuthorErrorCode.parse(text);
}
