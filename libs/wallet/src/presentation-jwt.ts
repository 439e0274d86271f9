import type { CryptoKey } from 'jose';
import { privateKeyHex } from './secp256k1-keys.js';
import { walletPackages } from './wallet-packages.js';

/** A did:ethr holder: its DID and the private key of that DID's controller address (hex). */
export interface EthrHolder {
  did: string;
  privateKey: string;
}

/** A holder of a did:jwk on a P-256 key of its own: `kid` its DID URL (`<did>#0`). */
export interface JwkHolder {
  did: string;
  kid: string;
  privateKey: CryptoKey;
}

/** The holder: a did:ethr controller key or a did:jwk P-256 key. */
export type Holder = EthrHolder | JwkHolder;

const isJwkHolder = (holder: Holder): holder is JwkHolder => typeof holder.privateKey !== 'string';

const VC_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

/**
 * A W3C VP in its JWT encoding (VC Data Model 1.1 §6.3.1) holding `credentials` (compact VC
 * JWTs): `iss` the holder, bound to a verifier by `aud` and `nonce`. A did:ethr holder signs
 * ES256K (did-jwt, `kid` `<did>#controller`), a did:jwk holder ES256 (jose, `kid` its own).
 */
export async function presentationJwt(
  holder: Holder,
  credentials: string[],
  binding: { aud: string | string[]; nonce: string },
): Promise<string> {
  const { didJwt, jose } = await walletPackages();
  const vp = {
    '@context': [VC_CONTEXT],
    type: ['VerifiablePresentation'],
    verifiableCredential: credentials,
  };
  if (isJwkHolder(holder)) {
    return new jose.SignJWT({ vp, nonce: binding.nonce })
      .setProtectedHeader({ typ: 'JWT', alg: 'ES256', kid: holder.kid })
      .setIssuer(holder.did)
      .setAudience(binding.aud)
      .setNotBefore(Math.floor(Date.now() / 1000))
      .sign(holder.privateKey);
  }
  return didJwt.createJWT(
    { vp, aud: binding.aud, nonce: binding.nonce },
    {
      issuer: holder.did,
      signer: didJwt.ES256KSigner(didJwt.hexToBytes(privateKeyHex(holder.privateKey))),
      alg: 'ES256K',
    },
    { alg: 'ES256K', typ: 'JWT', kid: `${holder.did}#controller` },
  );
}
