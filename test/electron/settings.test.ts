import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, MAX_RECENT_WORKSPACES, saveSettings, settingsFile, withOpenedWorkspace } from '../../electron/main/settings.ts';

const temp = (): string => mkdtempSync(join(tmpdir(), 'weft-settings-'));

describe('settings.json', () => {
  it('round-trips through a real file', () => {
    const dir = temp();
    saveSettings(dir, { recentWorkspaces: ['/a', '/b'], theme: 'dark', lastWorkspace: '/a' });
    expect(loadSettings(dir)).toEqual({ recentWorkspaces: ['/a', '/b'], theme: 'dark', lastWorkspace: '/a' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('is missing: defaults', () => expect(loadSettings(temp())).toEqual(DEFAULT_SETTINGS));

  it.each(['{"theme": ', '[]', 'null', '"x"', ''])('is corrupt (%s): defaults', (text) => {
    const dir = temp();
    writeFileSync(settingsFile(dir), text);
    expect(loadSettings(dir)).toEqual(DEFAULT_SETTINGS);
  });

  it('drops only the bad fields', () => {
    const dir = temp();
    writeFileSync(settingsFile(dir), JSON.stringify({ recentWorkspaces: ['/ok', 7, '', null, '/ok2'], theme: 'purple', lastWorkspace: '/ok' }));
    expect(loadSettings(dir)).toEqual({ recentWorkspaces: ['/ok', '/ok2'], theme: 'system', lastWorkspace: '/ok' });
  });

  it('keeps at most 10 recent workspaces, newest first, without duplicates', () => {
    let s = DEFAULT_SETTINGS;
    for (let i = 0; i < 14; i++) s = withOpenedWorkspace(s, `/w${i}`);
    s = withOpenedWorkspace(s, '/w5');
    expect(s.recentWorkspaces).toHaveLength(MAX_RECENT_WORKSPACES);
    expect(s.recentWorkspaces.slice(0, 3)).toEqual(['/w5', '/w13', '/w12']);
    expect(new Set(s.recentWorkspaces).size).toBe(MAX_RECENT_WORKSPACES);
    expect(s.lastWorkspace).toBe('/w5');
    const dir = temp();
    saveSettings(dir, s);
    expect(JSON.parse(readFileSync(settingsFile(dir), 'utf8')).recentWorkspaces[0]).toBe('/w5');
  });
});
