// The version numbers a replay's definition is stored under when no version of that content has
// run (a draft, a file, a version only saved from the app): from REPLAY_VERSION_BASE up, one per
// content. The `definitions` table keys snapshots by (workflow, version) and a version that has
// run is immutable, so a draft cannot take its own number; a number this high is never a user's,
// and a workflow's history, latest version and version lists leave these rows out.

export { REPLAY_VERSION_BASE } from '../../shared/run/version-label.ts';
