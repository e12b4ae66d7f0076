// Lint, including the layer rule: shared/ imports nothing of ours and no Node or React;
// shared-node/ (Node-only code the engine and the desktop shell both use) imports only shared/;
// engine/ and electron/ import only shared/ and shared-node/; renderer/ imports only shared/ and
// never Node, Electron, SQLite or PostgreSQL. A violation is an error, and `npm test` runs lint.
import tseslint from 'typescript-eslint';
import globals from 'globals';

const ours = (dirs) => dirs.flatMap((d) => [`**/${d}/**`, `**/${d}`]);
const NODE_BUILTINS = ['node:*', 'fs/*'];
// Bare builtin names are exact module names, not path patterns: a pattern "events" would also
// forbid shared/'s own ../events/ folder.
const NODE_MODULES = ['fs', 'path', 'os', 'child_process', 'worker_threads', 'http', 'https', 'net', 'crypto', 'url', 'util', 'stream', 'events', 'process', 'module'];

const restrict = (groups, message, names = [], more = []) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: groups, message }, ...more], paths: names.map((name) => ({ name, message })) }],
});

// Inside engine/: a later block's no-restricted-imports replaces an earlier one for the files it
// matches, so the blocks for executors, the CLI, the server and the service repeat the
// engine-wide groups.
const ENGINE_GROUPS = [...ours(['renderer', 'electron', 'test']), 'react', 'react-dom', 'electron'];
const ENGINE_MESSAGE = 'engine/ may import only shared/ and shared-node/ of ours';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'scratch/**', 'coverage/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**'],
    rules: restrict(
      [...ours(['engine', 'renderer', 'electron', 'test', 'shared-node']), ...NODE_BUILTINS, 'react', 'react-dom', 'react/*', 'electron', 'better-sqlite3', 'pg'],
      'shared/ is pure: it imports nothing of ours outside shared/, and no Node, React, Electron, SQLite or PostgreSQL',
      NODE_MODULES,
    ),
  },
  {
    // Node-only code the engine and the desktop shell both use (atomic file writes): Node is fine,
    // the app's processes are not.
    files: ['shared-node/**'],
    rules: restrict(
      [...ours(['engine', 'renderer', 'electron', 'test']), 'react', 'react-dom', 'react/*', 'electron', 'better-sqlite3', 'pg'],
      'shared-node/ is Node-only code for engine/ and electron/: it imports only shared/ of ours, and no Electron, React, SQLite or PostgreSQL',
    ),
  },
  {
    files: ['engine/**'],
    rules: restrict(ENGINE_GROUPS, ENGINE_MESSAGE),
  },
  {
    // An executor runs one attempt for whoever calls it; the scheduler is its caller, never its dependency.
    files: ['engine/executors/**'],
    rules: restrict(ENGINE_GROUPS, ENGINE_MESSAGE, [], [
      { group: ours(['runtime']), message: 'executors never import engine/runtime: take what you need (a clock, the step) through the executor interface' },
    ]),
  },
  {
    // The CLI parses, calls the engine service and prints; orchestration lives in engine/service,
    // and owning a store (open, lease, heartbeat, the engine, close) in engine/host.
    files: ['engine/cli/**'],
    rules: restrict(ENGINE_GROUPS, ENGINE_MESSAGE, [], [
      { group: ours(['runtime', 'store']), message: 'the CLI reaches the engine only through engine/service (and engine/host, which opens it): do not import engine/runtime or engine/store' },
    ]),
  },
  {
    // The server serves what the service answers; the engine it serves is the host's to build.
    files: ['engine/server/**'],
    rules: restrict(ENGINE_GROUPS, ENGINE_MESSAGE, [], [
      { group: [...ours(['runtime', 'executors']), '**/store/lease*', '**/store/open-database*'], message: 'the server builds no engine and opens no store: engine/host does (openEngineSession); reach the engine through engine/service' },
    ]),
  },
  {
    // The service is what the host, the CLI and the server build on: it never imports them.
    files: ['engine/service/**'],
    rules: restrict(ENGINE_GROUPS, ENGINE_MESSAGE, [], [
      { group: ours(['host', 'cli', 'server']), message: 'engine/service is the boundary the host, the CLI and the server use: it never imports them' },
    ]),
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(
      [...ours(['engine', 'electron', 'test', 'shared-node']), ...NODE_BUILTINS, 'electron', 'better-sqlite3', 'pg'],
      'renderer/ may import only shared/ of ours, and never Node, Electron, SQLite or PostgreSQL',
      NODE_MODULES,
    ),
  },
  {
    files: ['electron/**'],
    rules: restrict([...ours(['engine', 'renderer', 'test'])], 'electron/ may import only shared/ and shared-node/ of ours'),
  },
);
