// Kills a process and everything it started, as a machine stop would. Command steps run in their
// own process groups (the command executor spawns them detached), so killing the engine's group
// alone would leave them running; they are found through /proc by parent pid instead. Linux only.
import { readdirSync } from 'node:fs';
import { procStat } from '../../engine/executors/process-group.ts';

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** The engine's /proc reader (engine/executors/process-group.ts), with the pid attached. */
function procInfo(pid: number): ProcInfo | undefined {
  const info = procStat(pid);
  return info === undefined ? undefined : { pid, ppid: info.ppid, pgrp: info.pgrp };
}

/** The pids of every living descendant of `root`. */
function descendants(root: number): ProcInfo[] {
  const all: ProcInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = procInfo(Number(entry));
    if (info !== undefined) all.push(info);
  }
  const found: ProcInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!parents.has(p.pid) && parents.has(p.ppid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ESRCH') throw e;
  }
}

/**
 * SIGKILLs `root` (the leader of its own process group) and all its descendants and their groups.
 * The root is stopped first, so it can neither start another command nor see one die and record
 * that as the command's own failure: everything ends "at the same instant", like a power cut.
 * Returns how many descendants were killed.
 */
export function killTree(root: number): number {
  const own = procInfo(process.pid)?.pgrp;
  if (own === root) throw new Error('killTree: the process shares our process group; spawn it with detached: true');
  signal(root, 'SIGSTOP');
  const tree = descendants(root);
  for (const p of tree) {
    // A command's shell leads its group; its children (sleep) may appear after the listing.
    if (p.pgrp !== own) signal(-p.pgrp, 'SIGKILL');
    signal(-p.pid, 'SIGKILL');
    signal(p.pid, 'SIGKILL');
  }
  signal(-root, 'SIGKILL');
  signal(root, 'SIGKILL');
  return tree.length;
}
