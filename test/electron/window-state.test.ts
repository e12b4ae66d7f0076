import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWindowState, onScreen, saveWindowState, windowStateFile } from '../../electron/main/window-state.ts';

const temp = (): string => mkdtempSync(join(tmpdir(), 'weft-window-state-'));
const DISPLAY = { x: 0, y: 0, width: 1920, height: 1080 };

describe('window state file', () => {
  it('round-trips size, position and maximized through a real file', () => {
    const dir = temp();
    saveWindowState(dir, { bounds: { x: 100, y: 80, width: 1400, height: 900 }, maximized: true });
    expect(loadWindowState(dir)).toEqual({ bounds: { x: 100, y: 80, width: 1400, height: 900 }, maximized: true });
    expect(readdirSync(dir)).toEqual(['window-state.json']);
  });

  it('is missing: defaults', () => expect(loadWindowState(temp())).toBeUndefined());

  it.each([
    ['not JSON', '{"bounds": {'],
    ['empty', ''],
    ['wrong shape', '{"bounds": [1, 2], "maximized": "yes"}'],
    ['absurd size', '{"bounds": {"x": 0, "y": 0, "width": 10, "height": 1e9}, "maximized": false}'],
    ['null', 'null'],
  ])('is %s: defaults, no crash', (_what, text) => {
    const dir = temp();
    writeFileSync(windowStateFile(dir), text);
    expect(loadWindowState(dir)).toBeUndefined();
  });

  it('replaces the old file whole (no temporary left behind)', () => {
    const dir = temp();
    saveWindowState(dir, { bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: false });
    saveWindowState(dir, { bounds: { x: 3, y: 4, width: 900, height: 700 }, maximized: false });
    expect(JSON.parse(readFileSync(windowStateFile(dir), 'utf8')).bounds.x).toBe(3);
    expect(readdirSync(dir)).toEqual(['window-state.json']);
  });
});

describe('onScreen', () => {
  it('keeps bounds that are on a display', () => {
    const b = { x: 100, y: 100, width: 1200, height: 800 };
    expect(onScreen(b, [DISPLAY])).toEqual(b);
  });
  it('keeps bounds on a second display', () => {
    const b = { x: 2000, y: 50, width: 1000, height: 700 };
    expect(onScreen(b, [DISPLAY, { x: 1920, y: 0, width: 2560, height: 1440 }])).toEqual(b);
  });
  it('pulls a window from a display that is gone back to the first one, centred', () => {
    expect(onScreen({ x: 3000, y: 200, width: 1000, height: 700 }, [DISPLAY])).toEqual({ x: 460, y: 190, width: 1000, height: 700 });
  });
  it('pulls back a window whose title bar is above the screen, and shrinks one larger than it', () => {
    expect(onScreen({ x: 10, y: -500, width: 3000, height: 2000 }, [DISPLAY])).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  });
  it('pulls back a window with only a sliver on screen', () => {
    expect(onScreen({ x: 1900, y: 10, width: 800, height: 600 }, [DISPLAY])).toEqual({ x: 560, y: 240, width: 800, height: 600 });
  });
});

describe('trackWindowState', () => {
  it('saves the bounds and maximized state when the window closes', async () => {
    const { FakeElectron, windowOptions } = await import('./fake-electron.ts');
    const { trackWindowState } = await import('../../electron/main/window-state.ts');
    const dir = temp();
    const window = new FakeElectron().createWindow({ ...windowOptions(), x: 50, y: 60 });
    trackWindowState(window, dir);
    window.bounds = { x: 70, y: 90, width: 1111, height: 777 };
    window.maximized = true;
    window.close();
    expect(loadWindowState(dir)).toEqual({ bounds: { x: 70, y: 90, width: 1111, height: 777 }, maximized: true });
  });
});
