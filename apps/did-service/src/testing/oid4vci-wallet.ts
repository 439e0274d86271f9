import { createHash, randomBytes } from 'node:crypto';
import {
  clientAuthenticationAnonymous,
  type Jwk,
  type JwtHeader,
  type JwtPayload,
  type JwtSigner,
} from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { setGlobalConfig } from '@openid4vc/utils';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';

/** A wallet key: an ES256 key pair and its did:jwk (`did:jwk:` + base64url of the public JWK). */
export interface WalletKey {
  did: string;
  /** The DID URL of the key (`<did>#0`), the proof JWT's `kid`. */
  kid: string;
  privateKey: CryptoKey;
  publicJwk: Jwk;
}

export async function newDidJwkKey(): Promise<WalletKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = (await exportJWK(publicKey)) as Jwk;
  const did = `did:jwk:${Buffer.from(JSON.stringify(publicJwk)).toString('base64url')}`;
  return { did, kid: `${did}#0`, privateKey, publicJwk };
}

/** Signs a JWT as the wallet would: the header and payload the library built, the key given. */
export async function signWith(
  privateKey: CryptoKey,
  header: JwtHeader,
  payload: JwtPayload,
): Promise<string> {
  return new SignJWT(payload as Record<string, unknown>)
    .setProtectedHeader(header as { alg: string })
    .sign(privateKey);
}

/**
 * Test helper: a third-party OpenID4VCI 1.0 wallet — @openid4vc/openid4vci's Openid4vciClient
 * holding its own did:jwk key (`signingKey` signs the proofs; a test may swap it for another key
 * to forge one). Its fetch sends requests for `publicUrl` (what the offer and metadata name, where
 * a gateway would be) to the service at `serviceUrl`.
 */
export function oid4vciTestWallet(options: { publicUrl: string; serviceUrl: string }) {
  // The issuer of the specs is http (loopback); tests only.
  setGlobalConfig({ allowInsecureUrls: true });
  const state: { signingKey?: CryptoKey } = {};
  const rewrite = (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith(options.publicUrl)
      ? `${options.serviceUrl}${url.slice(options.publicUrl.length)}`
      : url;
  };
  const client = new Openid4vciClient({
    callbacks: {
      fetch: (input, init) => fetch(rewrite(input as string | URL | Request), init),
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => new Uint8Array(randomBytes(length)),
      clientAuthentication: clientAuthenticationAnonymous(),
      signJwt: async (_signer: JwtSigner, { header, payload }) => {
        if (!state.signingKey) throw new Error('the wallet has no key');
        return { jwt: await signWith(state.signingKey, header, payload), signerJwk: {} as Jwk };
      },
    },
  });
  return {
    client,
    /** The key the next proofs are signed with. */
    useKey(key: CryptoKey) {
      state.signingKey = key;
    },
  };
}
