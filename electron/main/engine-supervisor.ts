// STUB - NOT WIRED. The engine-process supervisor is written by another engineer (issue 14); their
// electron/main/engine-supervisor.ts replaces this file at merge. It exists only so the main
// process typechecks and bundles with the agreed signature.
import type { DesktopSession } from '../../shared/desktop/preload-contract.ts';

export interface EngineSupervisor {
  session(): DesktopSession;
  stop(): Promise<void>;
  /** How many times the engine has been started (the supervisor's brief adds it). */
  starts(): number;
  pid(): number | undefined;
}

export function startEngineSupervisor(_options: {
  workspace: string;
  env: Record<string, string>;
  command: string;
  args: string[];
  onEndpoint: (s: DesktopSession) => void;
  onLog?: (line: string) => void;
  healthIntervalMs?: number;
  restartDelayMs?: number;
  stopTimeoutMs?: number;
}): Promise<EngineSupervisor> {
  throw new Error('not wired: electron/main/engine-supervisor.ts is a stub until the supervisor lands');
}
