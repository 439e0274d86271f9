import { execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { MAX_MS_TO_503 } from '../faults/run-faults.js';
import type { SuiteFigures } from '../run-suite.js';
import type { RaceOutcome } from '../races/run-races.js';

const table = (head: string[], rows: Array<Array<string | number>>): string =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map(
      (r) => `| ${r.map((c) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`,
    ),
  ].join('\n');

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${process.platform}`;
}

/** The commit the run measured, and whether the working tree had changes besides it. */
function commit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const changes = execSync('git status --porcelain --untracked-files=no', { encoding: 'utf8' });
    return `commit \`${head}\` (${changes.trim() === '' ? 'clean tree' : 'with uncommitted changes'})`;
  } catch {
    return 'commit unknown';
  }
}

/** The figures section of docs/reliability.md (between the generated markers). */
export function figuresMarkdown(f: SuiteFigures, note = ''): string {
  const fuzzBad = f.fuzz.inputs - f.fuzz.verdicts.ok;
  const hits =
    f.hygiene.logs.hits.length + f.hygiene.database.hits.length + f.hygiene.redis.hits.length;
  return [
    `Profile **${f.profile}**, run ${f.startedAt} on ${machine()}, ${commit()}; ${f.seconds.toFixed(0)} s in all, the stack started in ${f.stackStartSeconds.toFixed(1)} s.${note ? ` ${note}` : ''}`,
    '',
    '### Fuzzing',
    '',
    `${f.fuzz.inputs} inputs in ${f.fuzz.seconds.toFixed(0)} s (seed ${f.fuzz.seed}); **5xx: ${f.fuzz.verdicts['5xx']}**, -32603 / resultCode "500": ${f.fuzz.verdicts['internal-error']}, undocumented shape: ${f.fuzz.verdicts['undocumented-shape']}, undocumented code: ${f.fuzz.verdicts['undocumented-code']}, no answer: ${f.fuzz.verdicts['no-answer']}; all processes up afterwards: ${Object.values(f.crashes).every((c) => c.length === 0) ? 'yes' : 'no'}, ready afterwards: ${f.readyAfterFuzz ? 'yes' : 'no'}.`,
    '',
    table(['HTTP status', 'answers'], Object.entries(f.fuzz.statuses).sort()),
    '',
    table(['endpoint / method', 'inputs'], Object.entries(f.fuzz.perTarget).sort()),
    '',
    fuzzBad === 0
      ? 'No problem found.'
      : table(
          ['target', 'verdict', 'status', 'sent', 'answer'],
          f.fuzz.problems.map((p) => [p.target, p.verdict, p.status, p.sent, p.answer]),
        ),
    '',
    '### Faults under mixed load',
    '',
    `${f.loadRequests} load requests (logins, createAddress, getBlock, transfer flows, create-did) while the faults ran. A fault is held for its "down" time, and longer (at most ${MAX_MS_TO_503 / 1000} s) until the probe has seen a clear 503. Times: from the fault to the probe's first clear 503, and from the dependency's return to the probe's first success; "login after" is a correct-password login right after (200 = no lockout).`,
    '',
    table(
      [
        'fault',
        'down (ms)',
        'to 503 (ms)',
        'to recovery (ms)',
        'login after',
        'success',
        'clear 503',
        'refused 4xx',
        'gateway 502/504',
        'unclear',
        'no answer',
      ],
      f.faults.map((x) => [
        x.kind,
        x.downMs,
        x.msTo503 ?? '—',
        x.msToRecovery ?? 'not within 60 s',
        x.loginAfter,
        x.outcomes.success,
        x.outcomes.unavailable,
        x.outcomes.refused,
        x.outcomes['upstream-down'],
        x.outcomes.unclear,
        x.outcomes['no-answer'],
      ]),
    ),
    '',
    ...f.faults
      .filter((x) => x.unclear.length > 0)
      .map(
        (x) =>
          `- ${x.kind}, unclear answers (first ${x.unclear.length}): ${x.unclear.map((u) => `\`${u.slice(0, 160)}\``).join('; ')}`,
      ),
    '',
    `Records before → after: ${Object.entries(f.recordsAfter)
      .filter(([t, n]) => n > 0 || (f.recordsBefore[t] ?? 0) > 0)
      .map(([t, n]) => `${t} ${f.recordsBefore[t] ?? 0} → ${n}`)
      .join(', ')}.`,
    `Acknowledged writes checked: ${f.lost.checked}; **lost: ${f.lost.wallets + f.lost.dids + f.lost.transactions}** (wallets ${f.lost.wallets}, DIDs ${f.lost.dids}, transactions ${f.lost.transactions}).`,
    `Transaction records: ${f.settle.records} (${Object.entries(f.settle.byStatus)
      .map(([s, n]) => `${s} ${n}`)
      .join(
        ', ',
      )}), all final ${f.settle.secondsToFinal === null ? `**not** within 60 s (${f.settle.open} open)` : `${f.settle.secondsToFinal.toFixed(1)} s after the last fault`}${f.settle.unknownToChain > 0 ? ` (${f.settle.unknownToChain} the chain never knew left open, by design: docs/adr/0011)` : ''}; **mismatches with the chain: ${f.settle.mismatches.length}**.`,
    '',
    '### Races',
    '',
    outcomesTable('race', f.races),
    '',
    '### Findings of the second review (issue 18, items 1–4)',
    '',
    outcomesTable('check', f.regressions),
    '',
    '### Redis restored from an older snapshot (issue 31)',
    '',
    `A snapshot of Redis (${f.redisRestore.snapshotKeys} keys) taken after each one-time thing was issued and before its one use; Redis restored from it ${(f.redisRestore.snapshotAgeMs / 1000).toFixed(1)} s later, in **${f.redisRestore.restoreMs} ms** (stop, the RDB file back, start, dataset loaded, append-only file rewritten); the stack served a correct-password login ${f.redisRestore.servingAgainMs === null ? '**not** within 20 s' : `${f.redisRestore.servingAgainMs} ms`} after. Every use replayed: **${f.redisRestore.replays - f.redisRestore.accepted} of ${f.redisRestore.replays} replays refused** (or, for the transfer, answered with the original TransactionID), **${f.redisRestore.accepted} accepted a second time**.`,
    '',
    outcomesTable('one-time rule', f.redisRestore.outcomes),
    '',
    '### Secret hygiene',
    '',
    `${f.hygiene.secretsKnown} secrets of the run looked for (passwords, mnemonics, private keys, secretKeys, hashKeys, JWTs, service secrets), plus JWT-, mnemonic- and secret-member-shaped text. **Hits: ${hits}** — log lines ${f.hygiene.logs.scanned} (${f.hygiene.logs.hits.length}), database rows ${f.hygiene.database.scanned} (${f.hygiene.database.hits.length}), Redis keys ${f.hygiene.redis.scanned} (${f.hygiene.redis.hits.length}).`,
    ...[...f.hygiene.logs.hits, ...f.hygiene.database.hits, ...f.hygiene.redis.hits]
      .slice(0, 10)
      .map((h) => `- ${h.kind} in ${h.where}: \`${h.excerpt}\``),
  ].join('\n');
}

export const BEGIN = '<!-- resilience:figures (npm run resilience) -->';
export const END = '<!-- /resilience:figures -->';

/** `doc` with its figures section replaced. */
export function replaceFigures(doc: string, figures: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return `${doc.trimEnd()}\n\n${BEGIN}\n\n${figures}\n\n${END}\n`;
  return `${doc.slice(0, start + BEGIN.length)}\n\n${figures}\n\n${doc.slice(end)}`;
}

/** Races and checks alike: what must hold, what happened, whether it held. */
function outcomesTable(what: string, outcomes: RaceOutcome[]): string {
  return table(
    [what, 'must', 'observed', 'held'],
    outcomes.map((r) => [r.name, r.expected, r.observed, r.passed ? 'yes' : '**no**']),
  );
}
