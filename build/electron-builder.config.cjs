// Packaging of the desktop app (electron-builder 26): `npm run dist` builds the app, the CLI and
// the Electron bundles, then this packs them for the platform it runs on. Packaging downloads
// Electron and, for better-sqlite3, Electron's headers or a prebuilt binary, so it runs on a
// machine with network access (see README.md, "Desktop app and releases").

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'studio.weft.app',
  productName: 'Weft Studio',
  copyright: 'Copyright © Weft Studio',
  directories: { output: 'dist/release', buildResources: 'build' },
  // What the app runs: the main and preload bundles, the served app, the engine's CLI bundle (the
  // engine process), and the production dependencies (devDependencies are never packed).
  files: [
    'package.json',
    'dist/electron/**/*',
    'dist/app/**/*',
    'dist/cli/**/*',
    'bin/**/*',
    'node_modules/**/*',
    '!**/node_modules/*/{CHANGELOG.md,README.md,readme.md,test,tests,__tests__}',
    '!**/*.map',
  ],
  asar: true,
  // A native module cannot be loaded from inside the asar archive: its .node binary stays outside.
  asarUnpack: ['**/node_modules/better-sqlite3/**/*'],
  // better-sqlite3 is built for Node's ABI by npm install; it is rebuilt for Electron's before
  // packing (a prebuilt Electron binary when one is published, else compiled from source).
  npmRebuild: true,
  buildDependenciesFromSource: false,
  fileAssociations: [
    {
      ext: 'weft.json',
      name: 'Weft workflow',
      description: 'Weft Studio workflow',
      mimeType: 'application/x-weft-workflow+json',
      role: 'Editor',
    },
  ],
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Weft Studio <maintainers@weft.studio>',
    // The folder of NxN.png files: each size is installed as is, none is scaled down.
    icon: 'build/icons',
    synopsis: 'Design, run and debug durable workflows',
  },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    // electron-builder converts the 1024 PNG to icon.icns when packing, so no .icns is kept here.
    icon: 'build/icons/1024x1024.png',
  },
  win: {
    target: ['nsis'],
    icon: 'build/icons/icon.ico',
  },
  nsis: {
    oneClick: false,
    // electron-builder registers file associations with an NSIS installer only per machine.
    perMachine: true,
    allowToChangeInstallationDirectory: true,
  },
};
