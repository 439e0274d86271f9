import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import type { Budget, ScenarioResult } from './scenarios.js';

export interface RunInfo {
  date: string;
  machine: string;
  node: string;
  commit: string;
  /** 1-minute load average before and after the run (other work on the same cores). */
  load: { before: number; after: number };
  mode: 'full' | 'smoke';
  /** The scenario numbers of an `--only` run; absent when all nine ran. */
  only?: number[];
  budget: Budget;
  stack: 'started by the suite (npm start)' | string;
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

/** The checked-out commit (read-only `git rev-parse`), or `unknown` outside a clone. */
export function commit(repoRoot: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'unknown';
  }
}

export const load1 = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** One dated Markdown section: every figure beside its same-run reference, and the targets. */
export function markdownSection(info: RunInfo, results: ScenarioResult[]): string {
  const lines = [
    `## ${info.date} — suite run (${info.mode}${info.only ? `, scenarios ${info.only.join(', ')} only` : ''})`,
    '',
    `Machine: ${info.machine}, Node ${info.node}; commit ${info.commit}; load average ` +
      `${info.load.before} before, ${info.load.after} after; ${info.budget.seconds} s per figure, ` +
      `${info.budget.connections} connections (crypto scenarios ${info.budget.cryptoConnections}, ` +
      `transfer ${info.budget.transferLanes} flows); stack: ${info.stack}.`,
    '',
  ];
  for (const result of results) {
    lines.push(`### ${result.id}. ${result.name}`, '');
    if (result.figures.length > 0) {
      lines.push(
        '| figure | ops/s | p50 ms | p99 ms | mean ms | errors |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
      );
      for (const f of result.figures) {
        lines.push(`| ${f.label} | ${f.rate} | ${f.p50} | ${f.p99} | ${f.meanMs} | ${f.errors} |`);
      }
      lines.push('');
    }
    for (const check of result.checks) {
      lines.push(`- ${check.target}: **${check.value}** ${check.met ? '(met)' : '(missed)'}`);
    }
    for (const note of result.notes) lines.push(`- ${note}`);
    lines.push('');
  }
  return lines.join('\n');
}
