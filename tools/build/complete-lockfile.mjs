// The npm registry this project's machines reach serves only the linux-x64 builds of packages
// that ship one optional package per platform (anvil, unrs resolver, …), so `npm install` writes
// a lockfile without the other platforms' entries, and `npm ci` then refuses the lockfile as out
// of sync. This script adds those entries (version, optional, os, cpu): npm ci skips them on a
// platform they do not match. Run it after every `npm install` that changes the lockfile:
//   npm run lock:complete
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));

const osOf = (name) =>
  ['darwin', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix'].find((os) =>
    name.includes(os),
  ) ?? 'linux';
const cpuOf = (name) => {
  if (/arm64|aarch64/.test(name)) return 'arm64';
  if (/(^|-)arm($|-)|gnueabihf|musleabihf|eabi/.test(name)) return 'arm';
  for (const cpu of ['ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'x86']) {
    if (name.includes(cpu)) return cpu === 'x86' ? 'ia32' : cpu;
  }
  return 'x64';
};

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[base] || lock.packages[`node_modules/${dep}`]) continue;
    lock.packages[`node_modules/${dep}`] = {
      version,
      optional: true,
      os: [osOf(dep)],
      cpu: [cpuOf(dep)],
    };
    added += 1;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} platform entries\n`);
