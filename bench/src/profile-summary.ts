/**
 * Summarises a `.cpuprofile` (node --cpu-prof) into the functions with the most self time and the
 * share of each package: `npx tsx bench/src/profile-summary.ts file.cpuprofile [top]`. Small
 * text that explains where the time goes, instead of committing the profile itself.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const top = Number(topArg ?? 25);
const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);

function where(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return url;
  if (url === '') return '(native/vm)';
  return url.replace(/^.*\/(apps|libs)\//, '$1/');
}

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = where(url);
  const key = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  byPlace.set(place, (byPlace.get(place) ?? 0) + hits);
}
const share = (hits: number) => `${((hits / total) * 100).toFixed(1)} %`;
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
process.stdout.write(`samples: ${total}\n\nself time by place:\n`);
for (const [place, hits] of sorted(byPlace))
  process.stdout.write(`  ${share(hits).padStart(7)}  ${place}\n`);
process.stdout.write('\nself time by function:\n');
for (const [key, hits] of sorted(byFunction))
  process.stdout.write(`  ${share(hits).padStart(7)}  ${key}\n`);
