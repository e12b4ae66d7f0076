// The sandboxed preload, bundled to one CommonJS file: it exposes the desktop contract's API and
// nothing else (never ipcRenderer). The logic is in desktop-api.ts, tested without Electron.
import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_GLOBAL } from '../../shared/desktop/preload-contract.ts';
import { createDesktopApi } from './desktop-api.ts';

contextBridge.exposeInMainWorld(DESKTOP_GLOBAL, createDesktopApi(ipcRenderer, process.platform));
