// Types of desktop-runtime.mjs for the tests that import it; build/ stays plain JavaScript so
// `npm start` compiles nothing before it decides.
import type { ChildProcess } from 'node:child_process';

export const FETCH_IDLE_TIMEOUT_MS: number;
export const FETCH_START_TIMEOUT_MS: number;
export type DesktopRuntimePlan = { kind: 'browser'; reason: string } | { kind: 'launch'; binary: string } | { kind: 'fetch' };
export function desktopRuntimePlan(o: { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; electronDir: string }): DesktopRuntimePlan;
export function electronBinary(o: { env: NodeJS.ProcessEnv; electronDir: string }): string | undefined;
export function appEntryProblem(root: string): string | undefined;
export function fetchElectron(o: {
  env: NodeJS.ProcessEnv;
  idleTimeoutMs?: number;
  startTimeoutMs?: number;
  command?: string[];
  onChild?: (child: ChildProcess) => void;
  onFirstProgress?: () => void;
}): Promise<{ ok: true } | { ok: false; reason: string }>;
export function browserLine(reason: string, o: { fetched: boolean }): string;
