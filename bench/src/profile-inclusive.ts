/**
 * Inclusive ("total") time of a `.cpuprofile` by function, over the samples where JavaScript or
 * native code ran (idle, program and GC samples left out): `npx tsx
 * bench/src/profile-inclusive.ts file.cpuprofile [top]`. Beside profile-summary.ts's self
 * time, it says which call path a share belongs to (e.g. the socket writes under res.end).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-inclusive.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const top = Number(topArg ?? 40);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map<number, number>();
for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);

const NOT_RUNNING = new Set(['(idle)', '(program)', '(garbage collector)']);
const place = (url: string) =>
  url
    .replace(/^.*node_modules\/\.cache\/.*$/, '(the app bundle)')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/(apps|libs)\//, '$1/');
let running = 0;
const inclusive = new Map<string, number>();
for (const [id, count] of hits) {
  if (NOT_RUNNING.has(byId.get(id)!.callFrame.functionName)) continue;
  running += count;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const { functionName, url, lineNumber } = byId.get(cur)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${place(url)}:${lineNumber + 1}`;
    if (seen.has(key)) continue; // recursion counts once
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + count);
  }
}
process.stdout.write(`samples where code ran: ${running}\n\ninclusive time by function:\n`);
for (const [key, count] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`  ${((count / running) * 100).toFixed(1).padStart(5)} %  ${key}\n`);
}
