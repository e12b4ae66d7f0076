// A step config that does not parse (for example after a retry variant patched it badly) is a
// definition problem: repeating the attempt cannot fix it, so it is not retryable.
import type { z } from 'zod';
import type { AttemptResult } from './executor.ts';

export function invalidConfigResult(stepId: string, kind: string, error: z.ZodError): AttemptResult {
  const problems = error.issues.map((issue) => {
    const path = ['config', ...issue.path.map(String)].join('.');
    return `${path}: ${issue.message}`;
  });
  return {
    outcome: 'failed',
    code: 'invalid_config',
    message: `${kind} step "${stepId}" has an invalid config: ${problems.join('; ')}`,
    retryable: false,
  };
}
