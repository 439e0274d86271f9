import type { SiweNonceResponse, SiweOptions, SiweSignedMessage, SiweSigner } from '../types.js';
import { siweAccountOf } from './siwe-account-of.js';
import { siweMessageFor } from './siwe-message-for.js';

/** A signed Sign-In with Ethereum message and the address that signed it. */
export interface SignedSiwe extends SiweSignedMessage {
  address: string;
}

/**
 * Signs a fresh Sign-In with Ethereum message with `signer`: the signer's address first, then a
 * nonce (`fetchNonce`), the message for it, and the signer's signature of that message.
 * `defaultStatement` gives the statement when `siwe.statement` is not set.
 */
export async function signSiwe(
  signer: SiweSigner,
  fetchNonce: () => Promise<SiweNonceResponse>,
  defaultStatement: (domain: string) => string,
  siwe: SiweOptions = {},
): Promise<SignedSiwe> {
  const account = await siweAccountOf(signer);
  const answer = await fetchNonce();
  const message = await siweMessageFor(answer, account.address, {
    statement: siwe.statement ?? defaultStatement(answer.domain),
    ...(siwe.expiresInMs === undefined ? {} : { expiresInMs: siwe.expiresInMs }),
  });
  return { address: account.address, message, signature: await account.sign(message) };
}
