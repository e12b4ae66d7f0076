// What the service refuses, in terms any front end can map: the CLI prints the message and exits
// 2; the server answers with the matching HTTP status. Engine and store errors are translated
// here, once, so neither front end knows the engine's error classes.
import { DefinitionFileError } from '../definition/definition-file-error.ts';
import { StoreError } from '../store/store-error.ts';
import { PolicyFileError } from '../policy/load-policy.ts';
import type { ApiErrorCode } from '../../shared/api/api-error.ts';

/** The API's error codes (shared/api/api-error.ts) that the service raises. */
export type ServiceErrorCode = Extract<ApiErrorCode, 'bad-input' | 'not-found' | 'refused' | 'internal'>;

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The ServiceError for an error the engine, the store or a definition file raised; undefined for a bug. */
export function serviceErrorOf(error: unknown): ServiceError | undefined {
  if (error instanceof ServiceError) return error;
  if (error instanceof DefinitionFileError || error instanceof PolicyFileError) return new ServiceError('bad-input', error.message);
  if (!(error instanceof StoreError)) {
    // The CLI's InputError (a flag's value it could not read) is a user error too; the service never sees one.
    if (error instanceof Error && error.name === 'InputError') return new ServiceError('bad-input', error.message);
    return undefined;
  }
  switch (error.code) {
    case 'unknown-run':
      return new ServiceError('not-found', error.message);
    case 'refused':
    case 'definition-conflict':
    case 'locked':
      return new ServiceError('refused', error.message);
    case 'bad-input':
      return new ServiceError('bad-input', error.message, error.field);
    default:
      return new ServiceError('internal', error.message);
  }
}

