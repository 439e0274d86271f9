/**
 * CPU time per operation of a figure: the stack's processes (/proc/<pid>/stat, all threads) and
 * this process (the load generator, `process.cpuUsage()`). Steadier than a rate on a loaded
 * machine: throughput moves 2× with other work on the cores, CPU per operation much less.
 */
import { readFileSync } from 'node:fs';
import { round, type Figure } from './load.js';

/** CPU ms (utime + stime) of process `pid` so far; undefined when it is gone. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** What `withCpu` measured: ms per operation of the stack's processes and of the whole. */
export interface CpuPerOp {
  figure: Figure;
  /** "gateway 0.59, auth-service 2.25, load generator 1.26 (all 4.1)". */
  text: string;
  /** The named stack processes together, ms per operation. */
  stackMs: number;
  /** The stack and the load generator, ms per operation. */
  totalMs: number;
}

/**
 * Runs `measure` and says how much CPU the stack's processes `names` (their pids in `pids`) and
 * this process spent per operation of its figure (successes and errors).
 */
export async function withCpu(
  pids: Record<string, number>,
  names: readonly string[],
  measure: () => Promise<Figure>,
): Promise<CpuPerOp> {
  const before = names.map((name) => cpuMsOf(pids[name] ?? -1));
  const self = process.cpuUsage();
  const figure = await measure();
  const used = process.cpuUsage(self);
  const ops = Math.max(1, figure.total + figure.errors);
  const parts: string[] = [];
  let stackMs = 0;
  names.forEach((name, i) => {
    const after = cpuMsOf(pids[name] ?? -1);
    const start = before[i];
    if (after === undefined || start === undefined) return;
    const ms = (after - start) / ops;
    stackMs += ms;
    parts.push(`${name} ${round(ms, 2)}`);
  });
  const generator = (used.user + used.system) / 1000 / ops;
  parts.push(`load generator ${round(generator, 2)}`);
  const totalMs = stackMs + generator;
  return { figure, text: `${parts.join(', ')} (all ${round(totalMs, 1)})`, stackMs, totalMs };
}

/** CPU ms per operation of this process over `measure` (the in-process references). */
export async function withOwnCpu(
  measure: () => Promise<Figure>,
): Promise<{ figure: Figure; ms: number }> {
  const self = process.cpuUsage();
  const figure = await measure();
  const used = process.cpuUsage(self);
  return {
    figure,
    ms: round((used.user + used.system) / 1000 / Math.max(1, figure.total + figure.errors), 2),
  };
}
