import type { SuiteFigures } from './run-suite.js';

/** Every rule of docs/reliability.md the run broke, in words (empty: all held). Recovery times are reported, not judged here. */
export function violations(f: SuiteFigures): string[] {
  const out: string[] = [];
  const v = f.fuzz.verdicts;
  if (v['5xx'] > 0) out.push(`fuzzing: ${v['5xx']} 5xx answers`);
  if (v['internal-error'] > 0)
    out.push(`fuzzing: ${v['internal-error']} -32603 / resultCode "500"`);
  if (v['undocumented-shape'] + v['undocumented-code'] > 0) {
    out.push(
      `fuzzing: ${v['undocumented-shape'] + v['undocumented-code']} errors outside the documented shape / codes`,
    );
  }
  if (v['no-answer'] > 0) out.push(`fuzzing: ${v['no-answer']} requests without an answer`);
  if (!f.readyAfterFuzz) out.push('not ready after the fuzzing');
  for (const [app, exits] of Object.entries(f.crashes))
    if (exits.length) out.push(`${app} exited: ${exits.join(', ')}`);
  for (const r of f.races) if (!r.passed) out.push(`race "${r.name}": ${r.observed}`);
  for (const r of f.regressions) if (!r.passed) out.push(`check "${r.name}": ${r.observed}`);
  for (const r of f.redisRestore.outcomes) {
    if (!r.passed) out.push(`Redis restored from a snapshot, "${r.name}": ${r.observed}`);
  }
  for (const x of f.faults) {
    if (x.outcomes['no-answer'] > 0)
      out.push(`${x.kind}: ${x.outcomes['no-answer']} requests without an answer`);
    if (x.outcomes.unclear > 0)
      out.push(`${x.kind}: ${x.outcomes.unclear} unclear answers (${x.unclear[0] ?? ''})`);
    if (x.msToRecovery === null) out.push(`${x.kind}: no recovery within 60 s`);
    if (x.loginAfter !== 200)
      out.push(`${x.kind}: a correct-password login afterwards answered ${x.loginAfter}`);
    if (x.kind !== 'sigterm-token-rpc' && x.kind !== 'sigterm-auth-service' && x.msTo503 === null) {
      out.push(`${x.kind}: no clear 503 while it was down`);
    }
  }
  const lost = f.lost.wallets + f.lost.dids + f.lost.transactions;
  if (lost > 0) out.push(`${lost} acknowledged writes lost`);
  for (const [table, before] of Object.entries(f.recordsBefore)) {
    if ((f.recordsAfter[table] ?? 0) < before)
      out.push(`${table}: ${before} rows before, ${f.recordsAfter[table]} after`);
  }
  if (f.settle.secondsToFinal === null)
    out.push(`${f.settle.open} transaction records not final within 60 s`);
  if (f.settle.mismatches.length > 0)
    out.push(`transaction records not matching the chain: ${f.settle.mismatches.join('; ')}`);
  if (!f.readyAtEnd) out.push('not ready at the end');
  const hits = [...f.hygiene.logs.hits, ...f.hygiene.database.hits, ...f.hygiene.redis.hits];
  if (hits.length > 0)
    out.push(`secret scan: ${hits.length} hits (${hits[0]?.kind} in ${hits[0]?.where})`);
  return out;
}
