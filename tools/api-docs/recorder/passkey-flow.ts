import { DEMO_USER } from '@itp/auth-service/demo-data';
import type { LoginResult } from '@itp/schemas';
import { launchChromium } from '@itp/testing/chromium';
import {
  createPasskey,
  getPasskeyAssertion,
  VirtualAuthenticator,
} from '@itp/testing/virtual-authenticator';
import type { ApiClient } from './api-client.js';
import type { RestRecorder } from './rest-recorder.js';

const AUTH = '/v2/auth';

export interface PasskeyFlowOptions {
  rec: RestRecorder;
  client: ApiClient;
  /** The stack's PUBLIC_URL: the origin the browser runs the WebAuthn ceremonies on. */
  publicUrl: string;
}

/**
 * Passkeys (docs/api.md §13) as a browser makes them: Chromium's virtual authenticator on a page
 * of PUBLIC_URL's origin (served by the recorder itself: only the origin matters to WebAuthn)
 * answers the service's options; registration, a login, a replay of each, removal.
 */
export async function recordPasskeyExamples(options: PasskeyFlowOptions): Promise<void> {
  const { rec, client } = options;
  // A fresh login: adding and removing a passkey are step-up operations.
  const login = await client.send('POST', `${AUTH}/auth-user`, {
    json: { id: DEMO_USER.id, password: DEMO_USER.password },
  });
  if (login.status !== 200) throw new Error(`login of ${DEMO_USER.id}: ${login.status}`);
  const bearer = (login.body as LoginResult).token;
  const browser = await launchChromium('the API-doc recorder (passkeys)');
  try {
    const page = await browser.newPage();
    const origin = new URL(options.publicUrl).origin;
    await page.route(`${origin}/**`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>x</title>',
      }),
    );
    await page.goto(`${origin}/passkeys`);
    await VirtualAuthenticator.attach(page);

    const creation = await rec.ok('POST', `${AUTH}/passkeys/registration-options`, {
      json: {},
      bearer,
      summary: "creation options for navigator.credentials.create (the caller's passkeys excluded)",
    });
    const registration = await createPasskey(page, creation);
    const added = await rec.ok<{ id: string }>('POST', `${AUTH}/passkeys`, {
      json: { response: registration, name: 'Laptop' },
      bearer,
      summary: 'the browser’s answer (credential.toJSON()) registered under a name',
    });
    await rec.fails('POST', `${AUTH}/passkeys`, 'passkeyRegistrationRefused', {
      json: { response: registration },
      bearer,
    });
    await rec.fails('POST', `${AUTH}/passkeys/registration-options`, 'badCredentials', {
      json: {},
    });
    await rec.bodyErrors(`${AUTH}/passkeys`, { bearer });

    const request = await rec.ok('POST', `${AUTH}/passkeys/authentication-options`, {
      json: {},
      summary: 'request options for navigator.credentials.get (any passkey of the service)',
    });
    const assertion = await getPasskeyAssertion(page, request);
    await rec.ok('POST', `${AUTH}/auth-user-with-passkey`, {
      json: { response: assertion },
      summary: 'the assertion (credential.toJSON()): the login result',
    });
    await rec.fails('POST', `${AUTH}/auth-user-with-passkey`, 'passkeyRefused', {
      json: { response: assertion },
    });
    await rec.bodyErrors(`${AUTH}/auth-user-with-passkey`);
    await rec.bodyErrors(`${AUTH}/passkeys/authentication-options`);

    await rec.ok('POST', `${AUTH}/passkeys/remove`, {
      json: { id: added.id },
      bearer,
      summary: 'the passkey no longer logs in',
    });
    await rec.fails('POST', `${AUTH}/passkeys/remove`, 'passkeyNotFound', {
      json: { id: added.id },
      bearer,
    });
    await rec.bodyErrors(`${AUTH}/passkeys/remove`, { bearer });
    await rec.bodyErrors(`${AUTH}/passkeys/registration-options`, { bearer });
  } finally {
    await browser.close();
  }
}
