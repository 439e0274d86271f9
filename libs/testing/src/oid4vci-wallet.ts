/**
 * A third-party OpenID4VCI 1.0 wallet: the OpenWallet Foundation's `Openid4vciClient`
 * (@openid4vc/openid4vci) holding its own did:jwk key (P-256, made and used by jose). Nothing of
 * this platform's code is involved. No jest in here: the e2e suites and the benchmark use it.
 */
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
export interface DidJwkKey {
  did: string;
  /** The DID URL of the key (`<did>#0`): the `kid` of its proofs and presentations. */
  kid: string;
  privateKey: CryptoKey;
  publicJwk: Jwk;
}

/** What signs a wallet's JWTs: an ES256 private key and its public JWK. */
export type WalletKey = Pick<DidJwkKey, 'privateKey' | 'publicJwk'>;

/** `extractable`: the private key can be exported (e.g. as the JWK an SD-JWT library signs with). */
export async function newDidJwkKey(options: { extractable?: boolean } = {}): Promise<DidJwkKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', {
    extractable: options.extractable ?? false,
  });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const publicJwk = { kty, crv, x, y } as Jwk;
  const did = `did:jwk:${Buffer.from(JSON.stringify(publicJwk)).toString('base64url')}`;
  return { did, kid: `${did}#0`, privateKey, publicJwk };
}

/**
 * `Openid4vciClient` whose JWTs (the proofs of possession) jose signs with `key`: the header and
 * payload the library built, ES256. With `dpopKey`, the DPoP proofs (a `jwk` signer naming that
 * key) are signed by it instead; `fetch` sees every request the library sends.
 */
export function oid4vciWallet(
  key: WalletKey,
  options: { allowInsecureUrls?: boolean; dpopKey?: WalletKey; fetch?: typeof fetch } = {},
): Openid4vciClient {
  const { dpopKey } = options;
  const signerOf = (signer: JwtSigner): WalletKey =>
    dpopKey && signer.method === 'jwk' && signer.publicJwk.x === dpopKey.publicJwk.x
      ? dpopKey
      : key;
  // A development stack on loopback serves plain HTTP (process-wide setting of the library).
  if (options.allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
  return new Openid4vciClient({
    callbacks: {
      fetch: options.fetch ?? fetch,
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => new Uint8Array(randomBytes(length)),
      clientAuthentication: clientAuthenticationAnonymous(),
      signJwt: async (signer, { header, payload }: { header: JwtHeader; payload: JwtPayload }) => {
        const signing = signerOf(signer);
        const jwt = await new SignJWT(payload as Record<string, unknown>)
          .setProtectedHeader(header as JwtHeader & { alg: string })
          .sign(signing.privateKey);
        return { jwt, signerJwk: signing.publicJwk };
      },
    },
  });
}
