import { readFileSync } from 'node:fs';
import { isAlive } from '@itp/harness';

function statOf(pid: number): { ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/**
 * The ancestors of this process in its own process group: for `npm start` that is tsx, sh and
 * npm (the shell job). Linux only (reads /proc); elsewhere an empty list.
 */
export function jobAncestors(): number[] {
  const own = statOf(process.pid);
  if (!own) return [];
  const ancestors: number[] = [];
  for (let pid = process.ppid; pid > 1;) {
    const stat = statOf(pid);
    if (!stat || stat.pgrp !== own.pgrp) break;
    ancestors.push(pid);
    pid = stat.ppid;
  }
  return ancestors;
}

/**
 * Calls `onGone` once when one of `pids` has ended. A SIGTERM sent to npm alone ends npm and its
 * `sh -c` but not what sh started: without this watch the stack would run on, orphaned.
 */
export function watchJob(pids: number[], onGone: (pid: number) => void, everyMs = 1000): void {
  if (pids.length === 0) return;
  const timer = setInterval(() => {
    const gone = pids.find((pid) => !isAlive(pid));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, everyMs);
  timer.unref();
}
