// Commands and script runners are started as leaders of their own process group (spawn with
// `detached: true`), so that stopping a step also stops whatever it started: `kill(-pid)` signals
// the whole group. Windows has no process groups; there only the process itself is signalled.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Sends `signal` to the group led by `child`; a group that is already gone is not an error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-pid, signal);
  } catch (error) {
    if (!isNoSuchProcess(error)) throw error;
  }
}

/**
 * Whether any process of the group led by `child` is still running. On Linux, zombies (dead,
 * waiting to be reaped by an init that may be slow to do so, as in some containers) do not count.
 */
export function groupExists(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (process.platform === 'win32') return child.exitCode === null && child.signalCode === null;
  if (process.platform === 'linux') return hasLivingGroupMember(pid);
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM: a member exists but belongs to someone else; it still exists.
    return !isNoSuchProcess(error);
  }
}

function isNoSuchProcess(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ESRCH';
}

/** Whether some process of group `pgid` is alive (not a zombie); stops at the first one found. */
function hasLivingGroupMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const info = procStat(entry);
    if (info !== undefined && info.pgrp === pgid && info.state !== 'Z' && info.state !== 'X') return true;
  }
  return false;
}

/** State, parent and process group from /proc/PID/stat; the command name may hold spaces and ')'. */
export function procStat(pid: string | number): { state: string; ppid: number; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  return state === undefined || !Number.isInteger(pgrp) || !Number.isInteger(ppid) ? undefined : { state, ppid, pgrp };
}
