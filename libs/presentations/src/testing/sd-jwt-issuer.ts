/**
 * The other side of an SD-JWT VC presentation, made with the maintained `@sd-jwt/*` libraries
 * (never with this lib's verifier): an issuer, a holder's presentation, a status list token. For
 * specs and end-to-end tests only.
 */
import type { webcrypto } from 'node:crypto';
import { Jwt } from '@sd-jwt/core';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { createHeaderAndPayload, StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';

export interface TestSdJwtIssuer {
  privateKeyJwk: webcrypto.JsonWebKey;
  /** The issuer's certificate chain, leaf first (base64 DER), put in the `x5c` header. */
  x5c: readonly string[];
}

export interface IssueTestSdJwtVcOptions {
  issuer: TestSdJwtIssuer;
  holderPublicJwk: webcrypto.JsonWebKey;
  vct: string;
  claims: Record<string, unknown>;
  /** Names of top-level claims made selectively disclosable; the others are plain. */
  disclosable: string[];
  status?: { idx: number; uri: string };
  /** Seconds since the epoch. */
  exp?: number;
  nbf?: number;
  iat?: number;
  /** Default https://issuer.example. */
  iss?: string;
  /** The header typ; default dc+sd-jwt. */
  typ?: string;
}

export const TEST_SD_JWT_ISSUER = 'https://issuer.example';
export const TEST_STATUS_LIST_URI = 'https://issuer.example/status-lists/1';

/** An SD-JWT VC (`<issuer JWT>~<disclosures>~`) issued by `@sd-jwt/sd-jwt-vc`. */
export async function issueTestSdJwtVc(options: IssueTestSdJwtVcOptions): Promise<string> {
  const sdjwt = new SDJwtVcInstance({
    signer: await ES256.getSigner(options.issuer.privateKeyJwk),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  const payload: SdJwtVcPayload = {
    ...options.claims,
    iss: options.iss ?? TEST_SD_JWT_ISSUER,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    vct: options.vct,
    cnf: { jwk: publicPart(options.holderPublicJwk) },
    ...(options.exp === undefined ? {} : { exp: options.exp }),
    ...(options.nbf === undefined ? {} : { nbf: options.nbf }),
    ...(options.status === undefined ? {} : { status: { status_list: options.status } }),
  };
  const frame = { _sd: options.disclosable } as Parameters<typeof sdjwt.issue>[1];
  return sdjwt.issue(payload, frame, {
    header: { typ: options.typ ?? 'dc+sd-jwt', x5c: [...options.issuer.x5c] },
  });
}

export interface PresentTestSdJwtVcOptions {
  holderPrivateJwk: webcrypto.JsonWebKey;
  /** Names of the top-level claims to disclose. */
  disclose: string[];
  nonce: string;
  audience: string;
  /** The KB-JWT's iat (seconds); default now. */
  iat?: number;
}

/** A holder's presentation with a key binding JWT, made by `@sd-jwt/sd-jwt-vc`. */
export async function presentTestSdJwtVc(
  credential: string,
  options: PresentTestSdJwtVcOptions,
): Promise<string> {
  const holder = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    kbSigner: await ES256.getSigner(options.holderPrivateJwk),
    kbSignAlg: 'ES256',
  });
  const frame = Object.fromEntries(options.disclose.map((name) => [name, true]));
  return holder.present(credential, frame, {
    kb: {
      payload: {
        iat: options.iat ?? Math.floor(Date.now() / 1000),
        aud: options.audience,
        nonce: options.nonce,
      },
    },
  });
}

export interface TestStatusListOptions {
  issuer: TestSdJwtIssuer;
  /** One status per credential index: 0 VALID, 1 INVALID (revoked), 2 SUSPENDED. */
  bits: readonly number[];
  /** The list's URI, its `sub`; default TEST_STATUS_LIST_URI. */
  uri?: string;
  bitsPerStatus?: BitsPerStatus;
  exp?: number;
  /** Leave out the x5c header (then the verifier uses the credential issuer's key). */
  withoutX5c?: boolean;
}

/** A status list token (`statuslist+jwt`) made with `@sd-jwt/jwt-status-list`, signed ES256. */
export async function testStatusList(options: TestStatusListOptions): Promise<string> {
  const list = new StatusList([...options.bits], options.bitsPerStatus ?? 1);
  const { header, payload } = createHeaderAndPayload(
    list,
    {
      sub: options.uri ?? TEST_STATUS_LIST_URI,
      iat: Math.floor(Date.now() / 1000),
      ...(options.exp === undefined ? {} : { exp: options.exp }),
    },
    {
      alg: 'ES256',
      typ: 'statuslist+jwt',
      ...(options.withoutX5c === true ? {} : { x5c: [...options.issuer.x5c] }),
    },
  );
  return new Jwt({ header, payload }).sign(await ES256.getSigner(options.issuer.privateKeyJwk));
}

function publicPart(jwk: webcrypto.JsonWebKey): webcrypto.JsonWebKey {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, y };
}
