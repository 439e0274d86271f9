/**
 * Test-only (`@itp/testing/virtual-authenticator`): Chromium's built-in WebAuthn authenticator
 * over the DevTools protocol (CTAP2, resident keys, user verification), so that passkey
 * ceremonies run headless with the browser's own `navigator.credentials` and WebAuthn JSON
 * helpers — the browser side exactly as a site's page runs it.
 */
import type { CDPSession, Page } from 'playwright-core';

/** A credential as the virtual authenticator holds it (CDP `WebAuthn.Credential`). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** What the page functions use of the browser's WebAuthn (this file is type-checked without DOM). */
interface BrowserWebAuthn {
  PublicKeyCredential: {
    parseCreationOptionsFromJSON(options: unknown): unknown;
    parseRequestOptionsFromJSON(options: unknown): unknown;
  };
  navigator: {
    credentials: {
      create(options: { publicKey: unknown }): Promise<{ toJSON(): Record<string, unknown> }>;
      get(options: { publicKey: unknown }): Promise<{ toJSON(): Record<string, unknown> }>;
    };
  };
}

/** One virtual authenticator attached to a page. */
export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    readonly authenticatorId: string,
  ) {}

  /**
   * Adds an authenticator to `page` (a platform one by default: `internal` transport, resident
   * keys, user verification that succeeds, presence simulated).
   */
  static async attach(
    page: Page,
    options: { cdp?: CDPSession } = {},
  ): Promise<VirtualAuthenticator> {
    const cdp = options.cdp ?? (await page.context().newCDPSession(page));
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  /** The credentials it holds (private keys included: a test may clone one). */
  async credentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: this.authenticatorId,
    });
    return credentials as VirtualCredential[];
  }

  /** Puts a credential into this authenticator (e.g. a copy of another's: a cloned key). */
  async addCredential(credential: VirtualCredential): Promise<void> {
    await this.cdp.send('WebAuthn.addCredential', {
      authenticatorId: this.authenticatorId,
      credential,
    });
  }

  /** Removes the authenticator (the page then has none). */
  async detach(): Promise<void> {
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', {
      authenticatorId: this.authenticatorId,
    });
  }
}

/**
 * `navigator.credentials.create` in `page` with creation options in their JSON form; the new
 * credential's `toJSON()` (a RegistrationResponseJSON).
 */
export function createPasskey(page: Page, options: unknown): Promise<Record<string, unknown>> {
  return page.evaluate(async (json) => {
    const w = globalThis as unknown as BrowserWebAuthn;
    const publicKey = w.PublicKeyCredential.parseCreationOptionsFromJSON(json);
    const credential = await w.navigator.credentials.create({ publicKey });
    return credential.toJSON();
  }, options);
}

/**
 * `navigator.credentials.get` in `page` with request options in their JSON form; the assertion's
 * `toJSON()` (an AuthenticationResponseJSON).
 */
export function getPasskeyAssertion(
  page: Page,
  options: unknown,
): Promise<Record<string, unknown>> {
  return page.evaluate(async (json) => {
    const w = globalThis as unknown as BrowserWebAuthn;
    const publicKey = w.PublicKeyCredential.parseRequestOptionsFromJSON(json);
    const credential = await w.navigator.credentials.get({ publicKey });
    return credential.toJSON();
  }, options);
}
