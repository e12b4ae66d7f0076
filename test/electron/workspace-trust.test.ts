// Trust goes through the real `weft trust` CLI, into a temporary config folder.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterPrompt, beforeOpening, isTrusted, OPEN_UNTRUSTED, TRUST, trustPrompt, trustWorkspace, type WeftCommand } from '../../electron/main/workspace-trust.ts';
import { REPO_ROOT } from '../cli/run-weft.ts';

function setup(): { weft: WeftCommand; workspace: string; config: string } {
  const root = mkdtempSync(join(tmpdir(), 'weft-shell-trust-'));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const config = join(root, 'config');
  return { weft: { command: process.execPath, args: [join(REPO_ROOT, 'bin', 'weft.js')], env: { ...process.env, WEFT_CONFIG_DIR: config } }, workspace, config };
}

describe('workspace trust through weft trust', () => {
  it('a new workspace is untrusted; trusting it records it where weft trust keeps it', async () => {
    const { weft, workspace, config } = setup();
    expect(await isTrusted(weft, workspace)).toBe(false);
    await trustWorkspace(weft, workspace);
    expect(await isTrusted(weft, workspace)).toBe(true);
    expect(await isTrusted(weft, `${workspace}/`)).toBe(true);
    expect(JSON.parse(readFileSync(join(config, 'trusted-workspaces.json'), 'utf8')).workspaces).toEqual([workspace]);
  });

  it("trusting a folder that is gone fails with weft's one-line message", async () => {
    const { weft, workspace } = setup();
    await expect(trustWorkspace(weft, join(workspace, 'gone'))).rejects.toThrow(/weft trust .*failed: .*does not exist/);
  });
});

describe('trust decision', () => {
  it('asks only for an untrusted workspace not answered this session', () => {
    expect(beforeOpening(true, false)).toEqual({ kind: 'nothing' });
    expect(beforeOpening(false, true)).toEqual({ kind: 'nothing' });
    expect(beforeOpening(false, false)).toEqual({ kind: 'ask' });
  });
  it('Trust trusts; Open without trusting (or Escape) does not', () => {
    expect(afterPrompt(TRUST)).toEqual({ kind: 'trust' });
    expect(afterPrompt(OPEN_UNTRUSTED)).toEqual({ kind: 'nothing' });
    expect(afterPrompt(7)).toEqual({ kind: 'nothing' });
  });
  it('the prompt offers Trust and Open without trusting, defaulting to the safe one', () => {
    const prompt = trustPrompt('/ws/x');
    expect(prompt.buttons).toEqual(['Trust', 'Open without trusting']);
    expect(prompt.buttons[prompt.defaultId]).toBe('Open without trusting');
    expect(prompt.buttons[prompt.cancelId]).toBe('Open without trusting');
    expect(prompt.message).toContain('/ws/x');
  });
});
