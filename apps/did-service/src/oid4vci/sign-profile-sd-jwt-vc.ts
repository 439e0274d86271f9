import { randomUUID } from 'node:crypto';
import type { SDJwtVcInstance, SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import type { Jwk } from '@openid4vc/oauth2';
import type { UserInfo } from '@itp/schemas';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { sdJwtVcSigner } from '../sd-jwt-issuer/sd-jwt-vc-signer.js';
import type { TokenStatusEntry } from '../status/token-status-lists.js';

type DisclosureFrame = NonNullable<Parameters<SDJwtVcInstance['issue']>[1]>;

/** The header `typ` of an SD-JWT VC (draft-ietf-oauth-sd-jwt-vc §3.2.1). */
export const SD_JWT_VC_TYP = 'dc+sd-jwt';

export interface ProfileSdJwtVcClaims {
  /** The credential issuer (`<PUBLIC_URL>/v2/did/oid4vci`). */
  issuer: string;
  /** The type (`<PUBLIC_URL>/v2/did/oid4vci/vct/profile`). */
  vct: string;
  /** The user (`sub`). */
  userId: string;
  /** The profile claims: each selectively disclosable. */
  userInfo: UserInfo;
  /** The holder's public key (`cnf.jwk`). */
  holderJwk: Jwk;
  status: TokenStatusEntry;
  /** Epoch seconds. */
  issuedAt: number;
  /** Seconds until `exp` (VC_LIFETIME_SECONDS); absent: no `exp`. */
  lifetimeSeconds?: number;
}

/** Only the public members of an EC key: what `cnf.jwk` says (never `d`, nor a `kid` of the wallet's). */
export function publicEcJwk(jwk: Jwk): Jwk {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, y } as Jwk;
}

/**
 * Signs a Profile SD-JWT VC (contract §15) with the current SD-JWT issuer key (ES256, header `typ`
 * `dc+sd-jwt` and the key's `x5c`): `iss`, `vct`, `sub`, `iat`, `exp`, `cnf.jwk` and
 * `status.status_list` always visible, each profile claim a disclosure (SHA-256, 128-bit salts).
 * Answers the issued `<jwt>~<disclosure>~…~` and its `jti`-like id (`urn:uuid:…`, for the record).
 */
export async function signProfileSdJwtVc(
  keys: SdJwtIssuerKeys,
  claims: ProfileSdJwtVcClaims,
): Promise<{ id: string; sdJwt: string }> {
  const key = await keys.current();
  const instance = sdJwtVcSigner(key);
  const id = `urn:uuid:${randomUUID()}`;
  const disclosable = Object.keys(claims.userInfo);
  const payload: SdJwtVcPayload = {
    ...claims.userInfo,
    iss: claims.issuer,
    vct: claims.vct,
    sub: claims.userId,
    jti: id,
    iat: claims.issuedAt,
    ...(claims.lifetimeSeconds ? { exp: claims.issuedAt + claims.lifetimeSeconds } : {}),
    cnf: { jwk: publicEcJwk(claims.holderJwk) },
    status: { status_list: { idx: claims.status.idx, uri: claims.status.uri } },
  };
  const sdJwt = await instance.issue(
    payload,
    // Every profile claim a disclosure; the frame's type cannot name keys known only at run time.
    disclosable.length > 0 ? ({ _sd: disclosable } as DisclosureFrame) : undefined,
    { header: { typ: SD_JWT_VC_TYP, x5c: key.x5c } },
  );
  return { id, sdJwt };
}
