import { createHash } from 'node:crypto';
import type { Openid4vpClient } from '@openid4vc/openid4vp';
import type { Resolvable } from 'did-resolver';
import { verifyDidSignedJwt } from './verify-did-signed-jwt.js';
import { Openid4vpWalletError } from './wallet-error.js';
import { walletPackages } from './wallet-packages.js';

const unsupported = (what: string) => (): never => {
  throw new Openid4vpWalletError(`this wallet does not support ${what}`, 'invalid_request');
};

/**
 * The OpenWallet Foundation's `Openid4vpClient` as this wallet uses it: request objects signed
 * by a DID verified through `resolver` (`verifyDidSignedJwt`); neither encrypted requests nor
 * JARM responses, only `direct_post`. `fetch` defaults to the global one at the time of each call.
 */
export async function openid4vpClient(options: {
  resolver: Resolvable;
  fetch?: typeof fetch;
}): Promise<Openid4vpClient> {
  const { openid4vp } = await walletPackages();
  return new openid4vp.Openid4vpClient({
    callbacks: {
      verifyJwt: verifyDidSignedJwt(options.resolver),
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      signJwt: unsupported('signing JARM responses'),
      decryptJwe: unsupported('encrypted request objects'),
      encryptJwe: unsupported('encrypted responses (direct_post.jwt)'),
    },
  });
}
