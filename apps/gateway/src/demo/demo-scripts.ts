/**
 * The demo pages' scripts, served as /demo/site.js, /demo/phone.js, /demo/passkeys.js and
 * /demo/age.js: small vanilla JS (ES2017, classic scripts, no build step) that talks only to this
 * gateway; what they share is /demo/demo-api.js, an ES module each loads with `import()`. They are files, browser/<name>.js beside this module (type-checked by tsconfig.browser.json, linted with browser
 * globals), read once when the demo router is made; the images carry them as dist/browser/*.js
 * (tools/build/assemble-app.ts), which is where `./browser/` points from the bundle.
 */
import { readFileSync } from 'node:fs';

/** The demo's script files (browser/<name>.js). */
export const DEMO_SCRIPTS = ['site', 'phone', 'passkeys', 'age', 'demo-api'] as const;
export type DemoScript = (typeof DEMO_SCRIPTS)[number];

/** The text of a demo script file (read from disk: call it once, at start). */
export function readDemoScript(name: DemoScript): string {
  return readFileSync(new URL(`./browser/${name}.js`, import.meta.url), 'utf8');
}
