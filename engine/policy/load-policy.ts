// Disk → the policy in force in a workspace (weft.policy.json at its root, docs/policies.md). No
// file: no policy. A file that cannot be read or does not parse is a PolicyFileError naming the
// file, the place and what to fix: nothing starts under a policy nobody can read, rather than
// silently starting without it.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { POLICY_FILE, type PolicySnapshot } from '../../shared/policy/policy-schema.ts';
import { parsePolicyText } from '../../shared/policy/parse-policy.ts';
import { hashOf } from '../store/canonical-json.ts';

/** Largest policy file read: a policy is a few KiB; anything near this is the wrong file. */
export const MAX_POLICY_BYTES = 1024 * 1024;

export class PolicyFileError extends Error {
  override readonly name = 'PolicyFileError';

  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The policy file of a workspace. */
export const policyPath = (workspaceDir: string): string => join(resolve(workspaceDir), POLICY_FILE);

/**
 * Reads the policy of a workspace: undefined when it has no policy file. Throws PolicyFileError
 * when the file is there but unreadable or invalid.
 *
 * @example
 * const policy = loadWorkspacePolicy('/work/flows'); // { hash: '3f2a…', rules: { format: 'weft-policy/v1', … } }
 */
export function loadWorkspacePolicy(workspaceDir: string): PolicySnapshot | undefined {
  const path = policyPath(workspaceDir);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new PolicyFileError(path, `${path} is not a file; the workspace policy must be a JSON file named ${POLICY_FILE}`);
    size = st.size;
  } catch (e) {
    if (e instanceof PolicyFileError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PolicyFileError(path, `cannot read the workspace policy ${path}: ${(e as Error).message}`);
  }
  if (size > MAX_POLICY_BYTES) throw new PolicyFileError(path, `the workspace policy ${path} is ${size.toLocaleString('en-US')} bytes; a policy is a few KiB (limit ${MAX_POLICY_BYTES.toLocaleString('en-US')}): check that this is the right file`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyFileError(path, `cannot read the workspace policy ${path}: ${(e as Error).message}`);
  }
  const parsed = parsePolicyText(text);
  if (!parsed.ok) {
    const lines = parsed.diagnostics.map((d) => `  ${d.line === undefined ? d.path : `line ${d.line}, column ${d.column ?? 1}`}: ${d.message} (${d.hint})`);
    throw new PolicyFileError(path, `the workspace policy ${path} is not valid, so nothing runs under it until it is fixed:\n${lines.join('\n')}`);
  }
  return { hash: hashOf(parsed.policy), rules: parsed.policy };
}
