/** Test-only (`@itp/testing/chromium`, not in the index: playwright-core is large to load). */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's chromium: playwright-core drives it (browser downloads are not possible here). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Launch flags for chromium in CI (Debian's chromium as root, no browser download): headless, no
 * sandbox (root in CI), nothing that phones home, and every host name but localhost unresolvable,
 * so that a page that tries another host fails instead of waiting.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/** Starts chromium with CHROMIUM_ARGS, or says how to install it when it is missing. */
export async function launchChromium(test: string): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: ${test} needs Debian's chromium. Install it with ` +
        '`sudo apt-get install -y chromium` (bash .ci/run does so).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Collects a page's console errors and page errors (a CSP violation is a console error). */
export function collectPageErrors(page: Page, into: string[]): void {
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') into.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => into.push(`${page.url()}: ${err.message}`));
}
