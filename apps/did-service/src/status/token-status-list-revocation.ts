import { compactVerify, exportJWK, importJWK, importX509, type JWK } from 'jose';
import type { RevokeVcResult } from '@itp/schemas';
import type { StatusListStore } from '../db/status-lists.js';
import { NotRevocableError, NotYourCredentialError } from '../errors.js';
import type { SdJwtIssuerKey, SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { tokenListBaseOf, tokenListIdOf, tokenListUri } from './token-status-list-urls.js';

/**
 * The SD-JWT issuer's keys; `published()` when the implementation has it (the stored keys: the
 * current one and earlier imported ones whose certificate has not expired, as the did:web
 * document names them), so that VCs signed before a key import stay revocable.
 */
export type RevocationIssuerKeys = SdJwtIssuerKeys & {
  published?: () => Promise<SdJwtIssuerKey[]>;
};

/** The SD-JWT issuer's public keys (P-256 JWKs), the current one first. */
export type IssuerPublicKeys = () => Promise<JWK[]>;

export interface RevokeSdJwtDeps {
  /** The SD-JWT issuer's keys; undefined when SD-JWT issuance is off (nothing is revocable). */
  issuerKeys: IssuerPublicKeys | undefined;
  store: StatusListStore;
}

/**
 * The public keys of `keys` for revoke-vc: the current one, then the others it publishes (each
 * once); undefined when issuance is off.
 */
export function publishedIssuerKeys(
  keys: RevocationIssuerKeys | undefined,
): IssuerPublicKeys | undefined {
  if (!keys) return undefined;
  return async () => {
    const all = [await keys.current(), ...((await keys.published?.()) ?? [])];
    const seen = new Set<string>();
    return all
      .map((key) => key.publicJwk)
      .filter((jwk) => {
        const id = `${String(jwk.x)}.${String(jwk.y)}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
  };
}

/** The `typ` of the SD-JWT VCs this service issues (and the earlier name of the media type). */
const SD_JWT_VC_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'];
const MAX_INDEX = 2 ** 31 - 1;

/**
 * Revokes an SD-JWT VC for good (revoke-vc `{ sdJwt }`). Its issuer-signed JWT decides (the part
 * before the first `~`; disclosures and a key-binding JWT are ignored): it must verify (ES256)
 * with one of the SD-JWT issuer keys (the current one or another it publishes), name that key as
 * its x5c leaf, be an SD-JWT VC (`typ`), and carry a `status.status_list` `{ idx, uri }` of one
 * of this service's token status lists whose issuer is the VC's `iss` (400 otherwise; expiry is
 * not checked: revoking an expired VC is harmless). With `userId` (the bearer's user) the entry
 * must have been handed out to that user (403). Revoking a revoked VC answers the same. A VC
 * signed by a key the issuer no longer publishes (its certificate expired) is revoked by a
 * password reset (no signature needed) or the operator CLI (any key ever imported counts).
 */
export async function revokeSdJwtCredential(
  deps: RevokeSdJwtDeps,
  sdJwt: string,
  userId?: string,
): Promise<RevokeVcResult> {
  if (!deps.issuerKeys) {
    throw new NotRevocableError(
      'This service issues no SD-JWT VCs: the credential cannot be revoked',
    );
  }
  const jwt = sdJwt.trim().split('~')[0] ?? '';
  const { header, payload } = await verifyIssuerSigned(jwt, await deps.issuerKeys());
  const claims = typeof payload === 'object' && payload !== null ? payload : {};
  const { iss, status } = claims as { iss?: unknown; status?: { status_list?: unknown } | null };
  const { idx, uri } = (status?.status_list ?? {}) as { idx?: unknown; uri?: unknown };
  if (!SD_JWT_VC_TYPES.includes(String(header.typ))) {
    throw new NotRevocableError(`The JWT is no SD-JWT VC (typ ${SD_JWT_VC_TYPES.join(' or ')})`);
  }
  const listId = typeof uri === 'string' ? tokenListIdOf(uri) : undefined;
  const index = Number.isInteger(idx) && (idx as number) >= 0 ? (idx as number) : undefined;
  const list =
    listId !== undefined && index !== undefined && index <= MAX_INDEX
      ? await deps.store.list(listId)
      : undefined;
  const entry = list && index !== undefined ? await deps.store.entry(list.id, index) : undefined;
  if (
    !list ||
    !entry ||
    typeof iss !== 'string' ||
    list.issuer !== iss ||
    tokenListBaseOf(list.issuer) === undefined ||
    uri !== tokenListUri(list.issuer, list.id)
  ) {
    throw new NotRevocableError(
      'The credential has no token status list entry of this service: it cannot be revoked',
    );
  }
  if (userId !== undefined && entry.userId !== userId) throw new NotYourCredentialError();
  await deps.store.revoke(entry.listId, entry.index);
  return {
    revoked: true,
    statusListCredential: tokenListUri(list.issuer, list.id),
    statusListIndex: String(entry.index),
  };
}

/**
 * The issuer-signed JWT's header and claims once it verifies with one of the issuer's keys (the
 * current one, then the earlier ones the issuer still publishes) and its x5c leaf is that key;
 * NotRevocableError otherwise.
 */
async function verifyIssuerSigned(
  jwt: string,
  keys: JWK[],
): Promise<{ header: Record<string, unknown>; payload: unknown }> {
  let verified;
  for (const publicJwk of keys) {
    try {
      verified = await compactVerify(jwt, await importJWK(publicJwk, 'ES256'), {
        algorithms: ['ES256'],
      });
    } catch {
      continue;
    }
    const header = verified.protectedHeader as Record<string, unknown>;
    const leaf = Array.isArray(header.x5c) ? header.x5c[0] : undefined;
    if (typeof leaf !== 'string' || !(await isLeafOf(leaf, publicJwk))) {
      throw new NotRevocableError('The SD-JWT’s x5c certificate is not this service’s issuer key');
    }
    try {
      return { header, payload: JSON.parse(new TextDecoder().decode(verified.payload)) };
    } catch {
      throw new NotRevocableError('The SD-JWT’s claims are not JSON');
    }
  }
  throw new NotRevocableError(
    'The SD-JWT does not verify as signed by this service’s SD-JWT issuer key',
  );
}

/** The base64 DER certificate `leaf` certifies `publicJwk` (EC P-256). */
async function isLeafOf(leaf: string, publicJwk: JWK): Promise<boolean> {
  const pem = `-----BEGIN CERTIFICATE-----\n${leaf.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----`;
  try {
    const certified = await exportJWK(await importX509(pem, 'ES256', { extractable: true }));
    return certified.x === publicJwk.x && certified.y === publicJwk.y;
  } catch {
    return false;
  }
}
