import type { PasskeySummary } from '@itp/schemas';

/**
 * A passkey of a user (WebAuthn Level 3 discoverable credential; docs/api.md §13), durable store:
 * auth_passkeys. Nothing here is secret: the public key verifies, it cannot sign.
 */
export interface Passkey {
  /** The credential id (base64url), as the authenticator names it. */
  id: string;
  userId: string;
  /** The user's name for it ("Laptop", "Phone"); `Passkey` unless given. */
  name: string;
  /** The COSE public key (base64url). */
  publicKey: string;
  /** The signature counter last seen (0: the authenticator keeps none). */
  counter: number;
  /** How the browser may reach the authenticator (`internal`, `hybrid`, `usb`, …). */
  transports: string[];
  /** `multiDevice`: a synced passkey (a software-protected key); `singleDevice`: bound to one device. */
  deviceType: 'singleDevice' | 'multiDevice';
  /** Whether the authenticator says it is backed up (synced). */
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

/** What `GET /v2/auth/account` lists of a passkey. */
export function summaryOf(passkey: Passkey): PasskeySummary {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: new Date(passkey.createdAt).toISOString(),
    ...(passkey.lastUsedAt !== null
      ? { lastUsedAt: new Date(passkey.lastUsedAt).toISOString() }
      : {}),
  };
}
