// The CLI as a packaged app carries it: bin/, dist/cli/ and package.json without the TypeScript
// sources (electron-builder packs no engine/ or shared/). bin/weft.js must run the bundle there,
// not fall back to tsx on sources that are not there: the desktop app starts its engine with it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freshBundlePath } from '../../bin/source-stamp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const app = mkdtempSync(join(tmpdir(), 'weft-packaged-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('bin/weft.js in a packaged app (no sources beside the bundle)', () => {
  it('runs the bundled CLI', () => {
    expect(freshBundlePath(ROOT), 'dist/cli is built by the global setup').toBeDefined();
    for (const part of ['bin', 'dist/cli', 'package.json']) cpSync(join(ROOT, part), join(app, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'));
    expect(freshBundlePath(app)).toBe(join(app, 'dist/cli/weft.js'));
    const workflow = join(app, 'w.weft.json');
    writeFileSync(workflow, JSON.stringify({ format: 'weft/v1', id: 'w', version: 1, name: 'W', steps: [{ id: 'start', kind: 'transform', config: { expression: '{}' } }, { id: 'done', kind: 'end' }], edges: [{ id: 'a', from: 'start', to: 'done' }] }));
    const r = spawnSync(process.execPath, [join(app, 'bin/weft.js'), 'validate', workflow], { cwd: app, encoding: 'utf8', env: { ...process.env, WEFT_FROM_SOURCE: '' } });
    expect(r.stderr).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});
