#!/usr/bin/env node
// Electron's first-launch download, as node_modules/electron/install.js does it (same artifact,
// version, platform, arch, checksums and cache), but reporting on stdout what the caller's idle
// time box needs (desktop-runtime.mjs): `request` once the request has been written to the
// server, `progress N` per percent, `downloaded` once the zip is in the cache; and a failure as
// ONE line on stderr with its cause (install.js prints a stack, and only "fetch failed" for a host
// it cannot reach). Once the zip is in the cache, install.js itself unpacks it and writes path.txt.
import { spawnSync } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const why = cause === undefined ? '' : ` (${cause.message}${cause.code !== undefined && !cause.message.includes(cause.code) ? `, ${cause.code}` : ''})`;
  return `${error.message}${why}`.replace(/\s+/g, ' ');
}

try {
  const require = createRequire(import.meta.url);
  const electronDir = dirname(require.resolve('electron/package.json'));
  const fromElectron = createRequire(join(electronDir, 'package.json'));
  const { downloadArtifact } = await import(pathToFileURL(fromElectron.resolve('@electron/get')).href);
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
  const env = process.env;
  let last = -1;
  // @electron/get downloads with fetch (undici), which announces a request just before it writes
  // it to the socket, in the same turn: said a turn later, the request is out, and from then on
  // a silent server is a stalled download.
  let requested = false;
  subscribe('undici:client:sendHeaders', () => {
    if (!requested) setImmediate(() => process.stdout.write('request\n'));
    requested = true;
  });
  await downloadArtifact({
    version,
    artifactName: 'electron',
    force: env.force_no_cache === 'true',
    cacheRoot: env.electron_config_cache,
    checksums: env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : JSON.parse(readFileSync(join(electronDir, 'checksums.json'), 'utf8')),
    platform: env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform,
    arch: env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch,
    downloadOptions: {
      quiet: true,
      getProgressCallback: ({ percent }) => {
        const now = Math.floor(percent * 100);
        if (now !== last) process.stdout.write(`progress ${(last = now)}\n`);
      },
    },
  });
  process.stdout.write('downloaded\n');
  const unpacked = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8' });
  if (unpacked.status !== 0) {
    const line = (unpacked.stderr || unpacked.error?.message || '').split('\n').find((l) => l.trim() !== '') ?? `exit code ${unpacked.status}`;
    throw new Error(`unpacking it failed: ${line.trim()}`);
  }
} catch (error) {
  process.stderr.write(`${describe(error)}\n`);
  process.exit(1);
}
