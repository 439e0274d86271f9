import { createECDH, generateKeyPairSync } from 'node:crypto';
import { ES256KSigner, ES256Signer, EdDSASigner, bytesToMultibase, type Signer } from 'did-jwt';
import { createVerifiablePresentationJwt } from 'did-jwt-vc';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { W3C_CREDENTIALS_CONTEXT, W3C_STATUS_CONTEXT } from '@itp/schemas';
import { REVOCATION, STATUS_ENTRY_TYPE } from '../status/credential-status.js';
import { StatusIndexAllocator } from '../status/status-index-allocator.js';
import { StatusListUrls } from '../status/status-list-urls.js';
import { HARNESS_PUBLIC_URL, type DidHarness } from './did-harness.js';

/** What a VP JWT of a standard wallet says besides its credentials. */
export interface PresentationClaims {
  /** `aud`: a verifier DID, or an OpenID4VP client id. */
  aud: string;
  /** OpenID4VP: the request's nonce. */
  nonce?: string;
}

/**
 * Test helper: the holder key of a standard wallet (not this service's wallet), with its DID
 * of a method such a wallet uses — did:jwk or did:key — and the VP JWTs it signs.
 */
export interface StandardWalletHolder {
  did: string;
  /** The DID URL of its key (JWT header `kid`). */
  kid: string;
  alg: 'ES256' | 'ES256K' | 'EdDSA';
  /** A VP JWT of this holder holding `credentials` (VC JWTs), signed with its key. */
  present(credentials: string[], claims: PresentationClaims): Promise<string>;
}

/**
 * A did:jwk holder on a P-256 key made by jose (as a browser or mobile wallet does): the DID is
 * `did:jwk:` + base64url(JSON of the public JWK), its key `<did>#0`; VPs are signed by jose's
 * SignJWT (ES256) — nothing of did-jwt on the signing side.
 */
export async function didJwkHolder(): Promise<StandardWalletHolder> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const did = `did:jwk:${Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url')}`;
  return joseHolder(did, `${did}#0`, privateKey);
}

/** A holder whose VPs jose signs ES256 with `privateKey`, claiming to be `did`. */
export function joseHolder(did: string, kid: string, privateKey: CryptoKey): StandardWalletHolder {
  return {
    did,
    kid,
    alg: 'ES256',
    present: (credentials, claims) =>
      new SignJWT({
        vp: {
          '@context': [W3C_CREDENTIALS_CONTEXT],
          type: ['VerifiablePresentation'],
          verifiableCredential: credentials,
        },
        ...(claims.nonce === undefined ? {} : { nonce: claims.nonce }),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid })
        .setIssuer(did)
        .setAudience(claims.aud)
        .setNotBefore(Math.floor(Date.now() / 1000))
        .setJti(`urn:uuid:${crypto.randomUUID()}`)
        .sign(privateKey),
  };
}

/** A fresh key of `curve`: its public key (raw, compressed for the EC curves), JWK and signer. */
function newKey(curve: 'secp256k1' | 'P-256' | 'Ed25519') {
  if (curve === 'Ed25519') {
    const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    return {
      publicKey: Buffer.from(jwk.x ?? '', 'base64url'),
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
      signer: EdDSASigner(Buffer.from(jwk.d ?? '', 'base64url')),
      alg: 'EdDSA' as const,
      codec: 'ed25519-pub' as const,
    };
  }
  const ecdh = createECDH(curve === 'P-256' ? 'prime256v1' : 'secp256k1');
  ecdh.generateKeys();
  const point = ecdh.getPublicKey();
  // getPrivateKey drops leading zero bytes (1 key in 256): the signers take exactly 32 bytes.
  const raw = ecdh.getPrivateKey();
  const secret = Buffer.concat([Buffer.alloc(32 - raw.length), raw]);
  return {
    publicKey: ecdh.getPublicKey(undefined, 'compressed'),
    publicJwk: {
      kty: 'EC',
      crv: curve,
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    signer: curve === 'P-256' ? ES256Signer(secret) : ES256KSigner(secret),
    alg: curve === 'P-256' ? ('ES256' as const) : ('ES256K' as const),
    codec: curve === 'P-256' ? ('p256-pub' as const) : ('secp256k1-pub' as const),
  };
}

/**
 * A did:key holder: secp256k1 (`zQ3s…`) or P-256 (`zDn…`), compressed public key, or Ed25519
 * (`z6Mk…`). The multibase / multicodec encoding is did-jwt's (bytesToMultibase); VPs are signed
 * by did-jwt-vc with did-jwt's signer of the curve.
 */
export function didKeyHolder(curve: 'secp256k1' | 'P-256' | 'Ed25519'): StandardWalletHolder {
  const key = newKey(curve);
  const multibase = bytesToMultibase(key.publicKey, 'base58btc', key.codec);
  const did = `did:key:${multibase}`;
  return didJwtVcHolder(did, `${did}#${multibase}`, key.signer, key.alg);
}

/**
 * A did:jwk holder on a secp256k1 or Ed25519 key (node:crypto), its VPs signed by did-jwt-vc;
 * didJwkHolder() is the P-256 one of jose.
 */
export function didJwkHolderOf(curve: 'secp256k1' | 'Ed25519'): StandardWalletHolder {
  const key = newKey(curve);
  const did = `did:jwk:${Buffer.from(JSON.stringify(key.publicJwk)).toString('base64url')}`;
  return didJwtVcHolder(did, `${did}#0`, key.signer, key.alg);
}

/** A holder whose VPs did-jwt-vc signs with `signer`, claiming to be `did`. */
function didJwtVcHolder(
  did: string,
  kid: string,
  signer: Signer,
  alg: StandardWalletHolder['alg'],
): StandardWalletHolder {
  return {
    did,
    kid,
    alg,
    present: (credentials, claims) =>
      createVerifiablePresentationJwt(
        {
          vp: {
            '@context': [W3C_CREDENTIALS_CONTEXT],
            type: ['VerifiablePresentation'],
            verifiableCredential: credentials,
          },
          jti: `urn:uuid:${crypto.randomUUID()}`,
        },
        { did, signer, alg },
        {
          domain: claims.aud,
          ...(claims.nonce === undefined ? {} : { challenge: claims.nonce }),
          header: { kid },
        },
      ),
  };
}

/**
 * A VC of this service's first issuer DID for `holder` (any DID) and `userId`, with a status
 * entry, signed by the agent as create-vc signs. What the OpenID4VCI credential endpoint will
 * issue to a wallet's own DID; create-vc itself only issues to DIDs create-did bound to the caller.
 */
export async function issueToHolder(
  h: DidHarness,
  holder: string,
  userId: string,
  claims: Record<string, string> = {},
): Promise<string> {
  const [issuer] = h.app.serviceDids.issuers;
  if (!issuer) throw new Error('the harness has no issuer DID');
  const { listId, index } = await new StatusIndexAllocator(
    h.app.statusLists,
    h.config.STATUS_LIST_LENGTH,
  ).allocate(issuer.did, userId);
  const listUrl = new StatusListUrls(HARNESS_PUBLIC_URL).listUrl(listId);
  const vc = await h.app.agent.createVerifiableCredential({
    proofFormat: 'jwt',
    credential: {
      '@context': [W3C_CREDENTIALS_CONTEXT, W3C_STATUS_CONTEXT],
      type: ['VerifiableCredential', 'Profile'],
      issuer: { id: issuer.did },
      issuanceDate: new Date().toISOString(),
      credentialSubject: { id: holder, sub: userId, ...claims },
      credentialStatus: {
        id: `${listUrl}#${index}`,
        type: STATUS_ENTRY_TYPE,
        statusPurpose: REVOCATION,
        statusListIndex: String(index),
        statusListCredential: listUrl,
      },
    },
  });
  return vc.proof.jwt as string;
}
