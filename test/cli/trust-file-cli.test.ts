// The user's trust list is theirs (issue 19, item 5): a `trusted-workspaces.json` that does not
// parse was read as empty, and `weft trust DIR` then replaced it, so every folder the user had
// trusted was forgotten without a word. Now every command that reads the list refuses such a
// file, naming it and saying how to fix it, and leaves it byte-identical; a workflow that runs no
// code, which needs no trust, still runs.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWeft, STACK_LINE } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-trust-file-'));
const workspace = join(dir, 'ws');
mkdirSync(workspace);
writeFileSync(join(workspace, 'code.weft.json'), JSON.stringify({
  format: 'weft/v1', id: 'code', version: 1, name: 'Runs a command',
  steps: [{ id: 'hello', kind: 'command', config: { argv: ['echo', '{}'] } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e', from: 'hello', to: 'done' }],
}));
writeFileSync(join(workspace, 'pure.weft.json'), JSON.stringify({
  format: 'weft/v1', id: 'pure', version: 1, name: 'Runs no code',
  steps: [{ id: 'one', kind: 'transform', config: { expression: '1' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e', from: 'one', to: 'done' }],
}));

describe('a trust list that does not read', { timeout: 120_000 }, () => {
  it.each([
    ['is not JSON', '{"workspaces": ["/home/ann/work", ', /is not valid JSON/],
    ['holds no list of folders', '{"workspaces": "/home/ann/work"}', /does not hold a list of folders/],
    ['lists something that is not a folder path', '{"workspaces": ["/home/ann/work", 7]}', /does not hold a list of folders/],
  ])('is refused by weft trust and weft run, named, and kept byte-identical: %s', async (_name, text, what) => {
    const config = mkdtempSync(join(dir, 'config-'));
    const file = join(config, 'trusted-workspaces.json');
    writeFileSync(file, text);
    const env = { WEFT_CONFIG_DIR: config };
    const db = join(dir, `${config.slice(-6)}.db`);
    for (const args of [['trust', workspace], ['trust', workspace, '--revoke'], ['trust', '--list'], ['run', 'code.weft.json', '--db', db]]) {
      const r = await runWeft(args, workspace, { env });
      expect(r.stderr, args.join(' ')).toContain(`the trust list ${file}`);
      expect(r.stderr, args.join(' ')).toMatch(what);
      expect(r.stderr, args.join(' ')).toMatch(/nothing was changed; fix the file, or move it away to start a new list/);
      expect(r.stderr).not.toContain(STACK_LINE);
      expect(r.code, args.join(' ')).toBe(2);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    const pure = await runWeft(['run', 'pure.weft.json', '--db', db], workspace, { env });
    expect(pure.code, pure.stderr).toBe(0);
  });
});
