// The desktop app's settings, in settings.json in the app-data folder: recent workspaces (newest
// first, at most 10), the theme, and the last workspace. A missing or corrupt file means
// defaults, and an entry that fails its schema is dropped rather than failing the others.
// Provider API keys are never here: see provider-keys.ts.
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeAppDataFile } from './app-data-file.ts';

export const MAX_RECENT_WORKSPACES = 10;
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

const settingsSchema = z.object({
  recentWorkspaces: z.array(z.string().min(1).max(4096)).max(MAX_RECENT_WORKSPACES),
  theme: z.enum(THEMES),
  lastWorkspace: z.string().min(1).max(4096).optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { recentWorkspaces: [], theme: 'system' };

export const settingsFile = (userData: string): string => join(userData, 'settings.json');

const path = z.string().min(1).max(4096);
// Each field falls back on its own, so one bad field costs only itself.
const lenientSchema = z
  .object({
    recentWorkspaces: z
      .array(z.unknown())
      .catch([])
      .transform((list) => list.flatMap((item) => (path.safeParse(item).success && typeof item === 'string' ? [item] : [])).slice(0, MAX_RECENT_WORKSPACES)),
    theme: z.enum(THEMES).catch(DEFAULT_SETTINGS.theme),
    lastWorkspace: path.optional().catch(undefined),
  })
  .catch({ recentWorkspaces: [], theme: DEFAULT_SETTINGS.theme, lastWorkspace: undefined });

/** The settings on disk; defaults for a missing or corrupt file, and for each bad field. */
export function loadSettings(userData: string): Settings {
  const { recentWorkspaces, theme, lastWorkspace } = lenientSchema.parse(readJsonFile(settingsFile(userData)));
  return { recentWorkspaces, theme, ...(lastWorkspace === undefined ? {} : { lastWorkspace }) };
}

export function saveSettings(userData: string, settings: Settings): void {
  writeAppDataFile(settingsFile(userData), `${JSON.stringify(settingsSchema.parse(settings), null, 2)}\n`);
}

/** The settings after opening `workspace`: it becomes the last one and heads the recent list. */
export function withOpenedWorkspace(settings: Settings, workspace: string): Settings {
  return { ...settings, lastWorkspace: workspace, recentWorkspaces: [workspace, ...settings.recentWorkspaces.filter((w) => w !== workspace)].slice(0, MAX_RECENT_WORKSPACES) };
}
