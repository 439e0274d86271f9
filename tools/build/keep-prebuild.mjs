// Keeps a native module compiled by `npm ci` as a local prebuild in npm's cache, where
// prebuild-install looks before it downloads (<npm cache>/_prebuilds/<sha512(url)[0..6]>-<file>):
// on a machine that cannot reach the module's prebuilt downloads, the next `npm ci` unpacks it
// instead of compiling again. .ci/run calls it after npm ci:
//   node tools/build/keep-prebuild.mjs <package> <download URL template> <binary path in the package>
// The URL template is the package's own prebuild URL with {version}, {abi}, {platform}, {arch}.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';

const [name, template, binary] = process.argv.slice(2);
if (!name || !template || !binary) {
  console.error('usage: keep-prebuild.mjs <package> <url template> <binary path>');
  process.exit(2);
}
const dir = join('node_modules', name);
if (!existsSync(join(dir, binary))) {
  console.log(`${name}: no ${binary} (not installed here); nothing kept`);
  process.exit(0);
}
const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const url = template
  .replaceAll('{version}', version)
  .replaceAll('{abi}', process.versions.modules)
  .replaceAll('{platform}', process.platform)
  .replaceAll('{arch}', process.arch);
const cache = join(execFileSync('npm', ['config', 'get', 'cache']).toString().trim(), '_prebuilds');
const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
const file = join(cache, `${digest}-${basename(url)}`);
if (existsSync(file)) {
  console.log(`${name}: ${file} is there already`);
  process.exit(0);
}
mkdirSync(cache, { recursive: true });
execFileSync('tar', ['-czf', `${file}.part`, '-C', dir, binary]);
renameSync(`${file}.part`, file);
console.log(`${name}: kept ${file}`);
