// How a run's workflow version is named to a person. A replay on a definition no run used (a
// draft, a file, a version only saved) is stored under a replay-only number from
// REPLAY_VERSION_BASE up (engine/store/replay-version.ts): those read as "draft", never as the
// nine-digit number, which is no version of the user's.

/** The first replay-only version number; lower numbers are the workflow's own versions. */
export const REPLAY_VERSION_BASE = 1_000_000_000;

/**
 * `v3` for a workflow's own version, `draft` for a replay-only one.
 *
 * @example
 * versionLabel(3); // 'v3'
 * versionLabel(1_000_000_001); // 'draft'
 */
export function versionLabel(version: number): string {
  return version >= REPLAY_VERSION_BASE ? 'draft' : `v${version}`;
}
